#!/usr/bin/env bash
# `hostbook add` with the ssh configuration installed, at 10 and at 10,000 saved hosts
# (benchmarks/README.md, "add"; issue 22 goal 2: ≤ 1.5× at 10,000), paired add by add
# (alternating which goes first), medians and the median of the per-pair ratios. Then
# `ssh -G` of a saved host through the installed configuration at 10,000 hosts against
# `ssh -G` of the same name with the user's configuration alone (goal ≤ 1.2×), paired the
# same way. The databases are made by `hostbook add` (schema) plus sqlite3 bulk rows (as in
# hosts.sh: every tenth host with a jump host), then `ssh-config --install`.
#
# Usage: benchmarks/add.sh [PAIRS] [HB]   (default 30 pairs; HB: a hostbook binary, default
#        the release build, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-30}
if [ -n "${2:-}" ]; then hb=$2; else
    swift build -c release --product hostbook >/dev/null
    hb="$(swift build -c release --show-bin-path)/hostbook"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

setup() { # $1 = number of hosts: a HOME with the configuration installed
    local n=$1 home=$work/home-$1
    mkdir -p "$home/.ssh" "$home/run"; chmod 700 "$home/run"
    printf 'Host mine\n    HostName mine.example\n' > "$home/.ssh/config"
    HOME=$home XDG_RUNTIME_DIR=$home/run "$hb" --db "$home/hb.db" add seed --hostname seed.example >/dev/null
    sqlite3 "$home/hb.db" "
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $n - 1)
      INSERT INTO hosts(uuid, name, hostname, port, user, auth, jump_host_id, note, source, created_at, updated_at)
      SELECT lower(hex(randomblob(16))), 'host-' || i, 'host-' || i || '.example.com', 22 + (i % 3), 'user' || (i % 7),
             'agent', CASE WHEN i % 10 = 0 THEN 1 END, NULL, 'manual', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n;
      PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
    HOME=$home XDG_RUNTIME_DIR=$home/run "$hb" --db "$home/hb.db" ssh-config --install 2>/dev/null
}
setup 10
setup 10000

add() { # $1 = hosts, $2 = new name
    local home=$work/home-$1
    HOME=$home XDG_RUNTIME_DIR=$home/run "$hb" --db "$home/hb.db" add "$2" --hostname "$2.example.net" --jump seed >/dev/null
}
ms() { local s e; s=$(date +%s%N); "$@"; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

add 10 warm-0; add 10000 warm-0
small=(); large=(); ratios=()
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$pairs"); do
    if [ $((i % 2)) -eq 0 ]; then a=$(ms add 10 "new-$i"); b=$(ms add 10000 "new-$i"); else b=$(ms add 10000 "new-$i"); a=$(ms add 10 "new-$i"); fi
    small+=("$a"); large+=("$b"); ratios+=("$(echo "scale=4; $b / $a" | bc)")
done
echo "add: $pairs pairs, load average $load0 → $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "  at 10 hosts:     median $(median "${small[@]}") µs"
echo "  at 10,000 hosts: median $(median "${large[@]}") µs"
echo "  median ratio:    $(median "${ratios[@]}")"
echo "  files in added/: $(ls "$work/home-10000/.config/hostbook/added" 2>/dev/null | wc -l), generated file $(wc -c < "$work/home-10000/.config/hostbook/ssh_config") bytes"

# ssh -G: the installed configuration (10,000 hosts, plus what the adds put in added/)
# against the user's own file alone, for a saved host's name.
home=$work/home-10000
tail -n +2 "$home/.ssh/config" > "$home/.ssh/config.alone"
withhb() { ssh -F "$home/.ssh/config" -G host-5000 </dev/null >/dev/null 2>&1; }
alone() { ssh -F "$home/.ssh/config.alone" -G host-5000 </dev/null >/dev/null 2>&1; }
withhb; alone
t1=(); t2=(); ratios=()
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$pairs"); do
    if [ $((i % 2)) -eq 0 ]; then a=$(ms alone); b=$(ms withhb); else b=$(ms withhb); a=$(ms alone); fi
    t1+=("$a"); t2+=("$b"); ratios+=("$(echo "scale=4; $b / $a" | bc)")
done
echo "ssh -G host-5000: $pairs pairs, load average $load0 → $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  user's config alone:               median $(median "${t1[@]}") µs"
echo "  with hostbook's (10,000 hosts):    median $(median "${t2[@]}") µs"
echo "  median ratio:                      $(median "${ratios[@]}")"
