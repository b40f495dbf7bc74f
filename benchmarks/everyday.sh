#!/usr/bin/env bash
# The everyday commands at 10,000 saved hosts (issue 23: `list`, `show`, `ssh-config`,
# `doctor` each under 50 ms): whole-process wall time, median (and minimum) of RUNS runs each, for one
# hostbook binary or two (then paired run by run, alternating which goes first, with the
# median of the per-pair ratios). The database is made as in hosts.sh (hostbook's schema,
# sqlite3 bulk rows: two tags per host, every tenth with a jump host, every fifth with a
# note) and the ssh configuration is installed (doctor checks it and runs `ssh -G`).
# No hyperfine on this machine: timed with date +%s%N around each run.
#
# Usage: benchmarks/everyday.sh [RUNS] [HB [HB2]]   (default 21 runs; HB the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
if [ -n "${2:-}" ]; then hb=$2; else
    swift build -c release --product hostbook >/dev/null
    hb="$(swift build -c release --show-bin-path)/hostbook"
fi
hb2=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home XDG_RUNTIME_DIR=$work/run
mkdir -p "$HOME/.ssh" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
db=$work/hb.db
"$hb" --db "$db" add seed --hostname seed.example >/dev/null
sqlite3 "$db" "
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
  INSERT INTO hosts(uuid, name, hostname, port, user, auth, jump_host_id, note, source, created_at, updated_at)
  SELECT lower(hex(randomblob(16))), 'host-' || i, 'host-' || i || '.example.com', 22 + (i % 3), 'user' || (i % 7),
         'agent', CASE WHEN i % 10 = 0 THEN 1 END, CASE WHEN i % 5 = 0 THEN 'note ' || i END, 'manual',
         '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n;
  INSERT INTO host_tags(host_id, tag) SELECT id, 'env' || (id % 3) FROM hosts;
  INSERT INTO host_tags(host_id, tag) SELECT id, 'team' || (id % 11) FROM hosts;
  PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
"$hb" --db "$db" ssh-config --install 2>/dev/null

ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
minimum() { printf '%s\n' "$@" | sort -n | head -1; }

echo "10,000 hosts, $runs runs each, $(nproc) cores; times in µs (median, and minimum for one binary)"
for cmd in "--version" "list" "list --json" "show host-5000" "show host-5000 --json" "ssh-config" "doctor"; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    a=(); b=(); r=()
    # shellcheck disable=SC2086
    for i in $(seq "$runs"); do
        if [ -z "$hb2" ]; then a+=("$(ms "$hb" --db "$db" $cmd)"); continue; fi
        if [ $((i % 2)) -eq 0 ]; then x=$(ms "$hb" --db "$db" $cmd); y=$(ms "$hb2" --db "$db" $cmd)
        else y=$(ms "$hb2" --db "$db" $cmd); x=$(ms "$hb" --db "$db" $cmd); fi
        a+=("$x"); b+=("$y"); r+=("$(echo "scale=4; $y / $x" | bc)")
    done
    if [ -z "$hb2" ]; then
        printf '%-24s %8s %8s   load %s→%s\n' "$cmd" "$(median "${a[@]}")" "$(minimum "${a[@]}")" "$load" "$(cut -d' ' -f1 /proc/loadavg)"
    else
        printf '%-24s first %8s  second %8s  ratio %s   load %s→%s\n' "$cmd" "$(median "${a[@]}")" "$(median "${b[@]}")" \
            "$(median "${r[@]}")" "$load" "$(cut -d' ' -f1 /proc/loadavg)"
    fi
done
# OpenSSH beside it: what plain ssh pays to read the same installed configuration for one
# saved host (`ssh -G` parses every line of every file it reads; ssh finds ~/.ssh/config by
# the passwd entry, not $HOME, hence -F).
a=()
for i in $(seq "$runs"); do a+=("$(ms ssh -F "$HOME/.ssh/config" -G host-5000)"); done
printf '%-24s %8s %8s   (OpenSSH, through the installed file)\n' "ssh -F ~/.ssh/config -G" "$(median "${a[@]}")" "$(minimum "${a[@]}")"
