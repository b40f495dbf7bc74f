#!/bin/sh
# Benchmark of `hostbook import-ssh-config` (release build) on a generated ~/.ssh/config of
# N concrete hosts (default 10,000): a main file with Host * and pattern blocks that
# Includes conf.d/*.conf (ten files of N/10 hosts; every fifth Host line names two aliases,
# every third host has a ProxyJump to the bastion, every host an IdentityFile whose .pub
# exists). Runs: a first import into an empty database, a re-import (all unchanged), and a
# dry run. Goal: the first import of 10,000 hosts under 1 s.
# OpenSSH has no bulk mode: `ssh -G -F FILE ALIAS` is timed for a sample of aliases and its
# mean per alias, times N, is the comparison (what resolving every host with ssh costs).
# Usage: benchmarks/ssh-config-import.sh [HOSTS] [SAMPLE]     (default: 10000 200)
set -eu
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "ssh-config-import.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
n=${1:-10000}
sample=${2:-200}
swift build -c release --product hostbook >/dev/null
bin="$(swift build -c release --show-bin-path)/hostbook"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
home="$work/home"
mkdir -p "$home/.ssh/conf.d"
ssh-keygen -q -t ed25519 -N '' -C bench -f "$home/.ssh/id_ed25519"

# The configuration: aliases h0 ... h(N-1).
awk -v n="$n" -v dir="$home/.ssh/conf.d" 'BEGIN {
    per = int((n + 9) / 10)
    i = 0
    while (i < n) {
        f = sprintf("%s/%02d.conf", dir, int(i / per))
        if (i % 5 == 0 && i + 1 < n && int((i + 1) / per) == int(i / per)) {
            printf "Host h%d h%d\n", i, i + 1 > f
            printf "  HostName 10.%d.%d.%d\n", int(i / 65536) % 256, int(i / 256) % 256, i % 256 > f
            i += 2
        } else {
            printf "Host h%d\n  HostName h%d.example.net\n", i, i > f
            i += 1
        }
        if (i % 3 == 0) printf "  ProxyJump bastion\n" > f
        if (i % 7 == 0) printf "  Port %d\n", 2000 + i % 1000 > f
        printf "  IdentityFile ~/.ssh/id_ed25519\n" > f
    }
}'
cat > "$home/.ssh/config" <<'CONF'
Host bastion
  HostName 192.0.2.1
  User ops
Include conf.d/*.conf
Host *.prod !db.prod
  ForwardAgent no
Host *
  User deploy
  ServerAliveInterval 30
CONF
hosts=$(grep -h '^Host ' "$home/.ssh/config" "$home/.ssh/conf.d/"*.conf | awk '{ for (i = 2; i <= NF; i++) if ($i !~ /[*?!]/) c++ } END { print c }')
lines=$(cat "$home/.ssh/config" "$home/.ssh/conf.d/"*.conf | wc -l)

measure() {  # the command; prints wall seconds, CPU seconds (user + system) and peak RSS in MB
    HOME="$home" /usr/bin/time -v "$@" >/dev/null 2>"$work/time" || { cat "$work/time" >&2; exit 1; }
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$work/time")
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$work/time")
    mb=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$work/time")
    echo "$secs $cpu $mb"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $hosts concrete hosts in $lines lines, 11 files"
printf '%-22s %10s %10s %10s\n' run "wall s" "cpu s" "peak MB"
set -- $(measure "$bin" --db "$work/db" import-ssh-config)
printf '%-22s %10s %10s %10s\n' "import" "$1" "$2" "$3"
set -- $(measure "$bin" --db "$work/db" import-ssh-config)
printf '%-22s %10s %10s %10s\n' "re-import (unchanged)" "$1" "$2" "$3"
set -- $(measure "$bin" --db "$work/db" import-ssh-config --dry-run)
printf '%-22s %10s %10s %10s\n' "dry run" "$1" "$2" "$3"
set -- $(measure "$bin" --db "$work/db" import-ssh-config --json)
printf '%-22s %10s %10s %10s\n' "re-import --json" "$1" "$2" "$3"

# ssh -G for a sample of aliases spread over the file.
step=$((n / sample)); [ "$step" -ge 1 ] || step=1
i=0; : > "$work/aliases"
while [ "$i" -lt "$n" ]; do echo "h$i" >> "$work/aliases"; i=$((i + step)); done
count=$(wc -l < "$work/aliases")
start=$(date +%s.%N)
while read -r a; do HOME="$home" ssh -G -F "$home/.ssh/config" "$a" >/dev/null 2>&1 </dev/null; done < "$work/aliases"
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" -v c="$count" -v n="$n" 'BEGIN {
    per = (e - s) / c
    printf "ssh -G: %d aliases in %.2f s, %.1f ms per alias; x %d hosts = %.1f s\n", c, e - s, per * 1000, n, per * n
}'
