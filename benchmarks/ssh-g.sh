#!/usr/bin/env bash
# `ssh -G` at 10,000 saved hosts (benchmarks/README.md, "ssh -G at 10,000 hosts"; issue 32
# goal 3): a saved host resolved through the installed configuration, against
# `ssh -F /dev/null -G` (ssh's start-up and defaults alone) and against the floor: a file
# holding only the lines each host needs (Host, HostName, Port, User, ProxyJump,
# IdentityFile, its kept known_hosts file) and the lines every block shares once, in `Host`
# lines listing the names (ssh parses every line of an included file, inactive blocks too:
# readconf.c passes SSHCONF_NEVERMATCH and still parses). With a second binary BEFORE, the
# configuration that binary installs for the same database is timed in the same run too.
# Paired run by run (alternating which goes first), medians and the median of the per-pair
# ratios, with the load average.
#
# Usage: benchmarks/ssh-g.sh [PAIRS] [HB] [BEFORE]   (default 30 pairs; HB: a hostbook
#        binary, default the release build, built first; BEFORE: another hostbook binary)
# Only the files the binaries write matter: `ssh -G` runs no hostbook process.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-30}
if [ -n "${2:-}" ]; then hb=$2; else
    swift build -c release --product hostbook >/dev/null
    hb="$(swift build -c release --show-bin-path)/hostbook"
fi
hb=$(realpath "$hb")
before=${3:+$(realpath "$3")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# install HOME BINARY: a home with the user's own Host block, 10,000 saved hosts, the
# configuration installed.
install() {
    local home=$1 hb=$2
    mkdir -p "$home/.ssh" "$home/run"; chmod 700 "$home/run"
    printf 'Host mine\n    HostName mine.example\n' > "$home/.ssh/config"
    HOME=$home XDG_RUNTIME_DIR=$home/run "$hb" --db "$home/hb.db" add seed --hostname seed.example >/dev/null
    sqlite3 "$home/hb.db" "
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000 - 1)
      INSERT INTO hosts(uuid, name, hostname, port, user, auth, jump_host_id, note, source, created_at, updated_at)
      SELECT lower(hex(randomblob(16))), 'host-' || i, 'host-' || i || '.example.com', 22 + (i % 3), 'user' || (i % 7),
             'agent', CASE WHEN i % 10 = 0 THEN 1 END, NULL, 'manual', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n;
      PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
    HOME=$home XDG_RUNTIME_DIR=$home/run "$hb" --db "$home/hb.db" ssh-config --install 2>/dev/null
}
home=$work/home
install "$home" "$hb"
if [ -n "$before" ]; then install "$work/before" "$before"; fi
generated=$home/.config/hostbook/ssh_config

# The floor: per host only what differs between hosts; what every block shares, once, for
# the names in Host lines of 200 names each (the installed file's own form since issue 32). The
# kept known_hosts file is per host name and port, so its line is per host here.
python3 - "$generated" "$work/floor" <<'PY'
import sys
text = open(sys.argv[1]).read()
own = ("HostName ", "Port ", "User ", "ProxyJump ", "IdentityFile ", "UserKnownHostsFile ")
# Blocks with a HostName are hosts' own (their Host line names the host and its aliases);
# any other block (the shared lines of a group of names) gives the shared lines.
out, names, shared, block = [], [], [], []
def flush():
    if not block: return
    if any(l.startswith("HostName ") for l in block[1:]):
        names.extend(block[0].split()[1:]); out.append(block[0])
        out.extend("    " + l for l in block[1:] if l.startswith(own))
        shared.extend(l for l in block[1:] if not l.startswith(own) and l not in shared)
    else:
        shared.extend(l for l in block[1:] if l not in shared)
for line in text.splitlines():
    s = line.strip()
    if s.startswith("Match all"): break
    if not s or s.startswith("#"): continue
    if s.startswith("Host "): flush(); block = [s]
    elif block: block.append(s)
flush()
for i in range(0, len(names), 200):
    out.append("Host " + " ".join(names[i:i + 200]))
    out += ["    " + s for s in shared]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
chmod 600 "$work/floor"
printf 'Include %s\n' "$work/floor" > "$home/.ssh/config.floor"
cat "$home/.ssh/config" | tail -n +2 >> "$home/.ssh/config.floor"

installed() { ssh -F "$home/.ssh/config" -G host-5000 </dev/null >/dev/null 2>&1; }
former() { ssh -F "$work/before/.ssh/config" -G host-5000 </dev/null >/dev/null 2>&1; }
floor() { ssh -F "$home/.ssh/config.floor" -G host-5000 </dev/null >/dev/null 2>&1; }
bare() { ssh -F /dev/null -G host-5000 </dev/null >/dev/null 2>&1; }
ms() { local s e; s=$(date +%s%N); "$@"; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
# resolved CONFIG HOME BINARY: ssh's settings for host-5000, the home and binary paths named alike.
resolved() { ssh -F "$1" -G host-5000 </dev/null 2>/dev/null | sed "s#$3#HB#g; s#$2#HOME#g" | sort; }

# Both resolve the host alike (the floor is a fair floor; the former file too).
diff <(resolved "$home/.ssh/config" "$home" "$hb") <(resolved "$home/.ssh/config.floor" "$home" "$hb") >/dev/null \
    || echo "note: the floor file resolves host-5000 differently"
if [ -n "$before" ]; then
    differ=$({ diff <(resolved "$home/.ssh/config" "$home" "$hb") <(resolved "$work/before/.ssh/config" "$work/before" "$before") || true; } \
        | sed -n 's/^[<>] \([a-z]*\) .*/\1/p' | sort -u | tr '\n' ' ')
    [ -z "$differ" ] || echo "note: the BEFORE binary's file resolves host-5000 differently in: $differ"
    former
fi
installed; floor; bare
ti=(); tf=(); tb=(); tp=(); r_bare=(); r_floor=(); r_before=()
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$pairs"); do
    p=0
    if [ $((i % 2)) -eq 0 ]; then
        a=$(ms installed); b=$(ms bare); c=$(ms floor); if [ -n "$before" ]; then p=$(ms former); fi
    else
        if [ -n "$before" ]; then p=$(ms former); fi; c=$(ms floor); b=$(ms bare); a=$(ms installed)
    fi
    ti+=("$a"); tb+=("$b"); tf+=("$c"); tp+=("$p")
    r_bare+=("$(echo "scale=4; $a / $b" | bc)"); r_floor+=("$(echo "scale=4; $a / $c" | bc)")
    if [ -n "$before" ]; then r_before+=("$(echo "scale=4; $a / $p" | bc)"); fi
done
lines=$(grep -c . "$generated"); flines=$(grep -c . "$work/floor")
echo "ssh -G host-5000 at 10,000 hosts: $pairs runs each, load average $load0 → $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "  installed file: $lines lines ($(echo "scale=2; $lines / 10000" | bc) per host), floor file: $flines lines ($(echo "scale=2; $flines / 10000" | bc) per host)"
echo "  installed median $(median "${ti[@]}") µs, floor $(median "${tf[@]}") µs, ssh -F /dev/null $(median "${tb[@]}") µs"
echo "  median ratio installed / -F /dev/null: $(median "${r_bare[@]}")"
echo "  median ratio installed / floor:        $(median "${r_floor[@]}")"
if [ -n "$before" ]; then
    blines=$(grep -c . "$work/before/.config/hostbook/ssh_config")
    echo "  BEFORE's file: $blines lines ($(echo "scale=2; $blines / 10000" | bc) per host), median $(median "${tp[@]}") µs"
    echo "  median ratio BEFORE / -F /dev/null:    $(median $(for i in "${!tp[@]}"; do echo "scale=4; ${tp[$i]} / ${tb[$i]}" | bc; done))"
    echo "  median ratio BEFORE / floor:           $(median $(for i in "${!tp[@]}"; do echo "scale=4; ${tp[$i]} / ${tf[$i]}" | bc; done))"
    echo "  median ratio installed / BEFORE:       $(median "${r_before[@]}")"
fi
