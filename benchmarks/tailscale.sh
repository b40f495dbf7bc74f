#!/bin/sh
# Benchmark of `hostbook import-tailscale` (release build) on generated status files with
# 10,000 and 100,000 peers (benchmarks/tailscale-generate.py, seed 1): a first import into
# an empty database and a re-import of the same file (every host unchanged).
# Goals: 10k under 1 s; 100k under 10 s with peak memory under 300 MB (/usr/bin/time -v).
# Then the doubling test of issue 22: one device with K host keys and one with 1.5 K
# addresses (each listed twice; `tailscale-generate.py --wide`), for K = 20,000 and 40,000:
# import, re-import, and a re-import that rotates every key. Goal: 2x the input takes
# at most 2.5x the time.
# Usage: benchmarks/tailscale.sh [--wide-only] [PEERS...]     (default: 10000 100000)
set -eu
wide_only=
[ "${1:-}" = "--wide-only" ] && { wide_only=1; shift; }
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "tailscale.sh: python3 is needed for the generator" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "tailscale.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
swift build -c release --product hostbook >/dev/null
bin="$(swift build -c release --show-bin-path)/hostbook"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sizes="${*:-10000 100000}"
[ -n "$wide_only" ] && sizes=""

measure() {  # the command; prints wall seconds, CPU seconds (user + system) and peak RSS in MB
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time" || { cat "$work/time" >&2; exit 1; }
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$work/time")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$work/time")
    mb=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/time")
    echo "$secs $cpu $mb"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-8s %-10s %-10s %10s %10s %10s\n' peers "input MB" run "wall s" "cpu s" "peak MB"
for n in $sizes; do
    python3 benchmarks/tailscale-generate.py "$n" 1 > "$work/status-$n.json"
    size=$(awk "BEGIN { printf \"%.0f\", $(stat -c %s "$work/status-$n.json") / 1048576 }")
    rm -f "$work/db-$n"*
    set -- $(measure "$bin" --db "$work/db-$n" import-tailscale "$work/status-$n.json" --all)
    printf '%-8s %-10s %-10s %10s %10s %10s\n' "$n" "$size" "import" "$1" "$2" "$3"
    set -- $(measure "$bin" --db "$work/db-$n" import-tailscale "$work/status-$n.json" --all)
    printf '%-8s %-10s %-10s %10s %10s %10s\n' "$n" "$size" "re-import" "$1" "$2" "$3"
done

echo "== one device with K keys, one with 1.5 K addresses (each listed twice), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-10s %-10s %10s %10s %10s\n' K "input MB" run "wall s" "cpu s" "peak MB"
for k in 20000 40000; do
    python3 benchmarks/tailscale-generate.py --wide "$k" 1 > "$work/wide-$k.json"
    python3 benchmarks/tailscale-generate.py --wide "$k" 2 > "$work/wide-$k-rotated.json"
    size=$(awk "BEGIN { printf \"%.1f\", $(stat -c %s "$work/wide-$k.json") / 1048576 }")
    rm -f "$work/wdb-$k"*
    for run in import re-import rotate; do
        doc="$work/wide-$k.json"; [ $run = rotate ] && doc="$work/wide-$k-rotated.json"
        set -- $(measure "$bin" --db "$work/wdb-$k" import-tailscale "$doc" --all)
        printf '%-8s %-10s %-10s %10s %10s %10s\n' "$k" "$size" "$run" "$1" "$2" "$3"
        echo "$k $run $1 $2" >> "$work/wide.txt"
    done
done
awk '{ t[$1 " " $2] = $3; c[$1 " " $2] = $4 }
     END { split("import re-import rotate", r, " ")
           for (i = 1; i <= 3; i++) printf "2x the input, %s: %.2fx the wall time, %.2fx the CPU time (goal <= 2.5)\n", r[i],
               t["40000 " r[i]] / t["20000 " r[i]], c["40000 " r[i]] / c["20000 " r[i]] }' "$work/wide.txt"
