#!/usr/bin/env bash
# known-hosts benchmark (benchmarks/README.md, "known-hosts"): `hostbook known-hosts check`
# side by side with `ssh-keygen -F` on the same 100,000-host known_hosts, plain and hashed
# with `ssh-keygen -H` (each imported once), a check in a 1,000,000-entry store, and the
# import of 200,000 lines. Release build, one run, hyperfine.
#
# Usage: benchmarks/known-hosts.sh [RESULTS.md]   (needs python3, ssh-keygen, hyperfine, sqlite3)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-}
swift build -c release --product hostbook >/dev/null
hb="$(swift build -c release --show-bin-path)/hostbook"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gen() { python3 benchmarks/known-hosts-gen.py "$1" "$2"; }
gen 100000 "$work/plain"
cp "$work/plain" "$work/hashed"
ssh-keygen -q -H -f "$work/hashed" >/dev/null 2>&1
rm -f "$work/hashed.old"
gen 200000 "$work/lines200k"
gen 1000000 "$work/lines1m"

name=host50000.bench.example
key=$(grep "^$name " "$work/plain" | cut -d' ' -f2,3)
ported='[host50007.bench.example]:2222'

echo "== import (100k plain, 100k hashed, 1M plain; timed once each)"
for f in plain hashed lines1m; do
  start=$(date +%s.%N)
  "$hb" --db "$work/$f.db" known-hosts import "$work/$f"
  end=$(date +%s.%N)
  echo "$f: $(echo "$end - $start" | bc) s"
done

hf=(hyperfine -N --style basic)
[ -n "$out" ] && : > "$out"
export_md() { [ -n "$out" ] && echo "--export-markdown $work/$1.md" || true; }
append() { [ -n "$out" ] && { echo "### $2" >> "$out"; cat "$work/$1.md" >> "$out"; echo >> "$out"; } || true; }

echo "== check vs ssh-keygen -F, 100,000 hosts"
"${hf[@]}" -w 3 -r 30 $(export_md check100k) \
  -n "ssh-keygen -F (plain file)" "ssh-keygen -F $name -f $work/plain" \
  -n "hostbook check (plain import)" "$hb --db $work/plain.db known-hosts check $name --key '$key'" \
  -n "ssh-keygen -F (hashed file)" "ssh-keygen -F $name -f $work/hashed" \
  -n "hostbook check (hashed import)" "$hb --db $work/hashed.db known-hosts check $name --key '$key'"
append check100k "check at 100,000 hosts"

echo "== first check of a name in the hashed store (remembered scans cleared before each run)"
"${hf[@]}" -w 1 -r 15 $(export_md cold) \
  --prepare "sqlite3 $work/hashed.db 'DELETE FROM known_hosts_hash_scans; UPDATE known_hosts SET learned = NULL WHERE learned IS NOT NULL;'" \
  -n "ssh-keygen -F (hashed file)" "ssh-keygen -F $name -f $work/hashed" \
  -n "hostbook check, first time (hashed import)" "$hb --db $work/hashed.db known-hosts check $name --key '$key'"
append cold "first check of a name, hashed store"

echo "== check in a 1,000,000-entry store"
key1m=$(grep "^$name " "$work/lines1m" | cut -d' ' -f2,3)
"${hf[@]}" -w 3 -r 30 $(export_md check1m) \
  -n "hostbook check (1M entries)" "$hb --db $work/lines1m.db known-hosts check $name --key '$key1m'" \
  -n "hostbook check, port 2222 (1M entries)" "$hb --db $work/lines1m.db known-hosts check host50007.bench.example --port 2222 --key '$(grep -F "$ported " "$work/lines1m" | cut -d' ' -f2,3)'" \
  -n "hostbook --version (start-up)" "$hb --version"
append check1m "check in a 1,000,000-entry store"

echo "== import of 200,000 lines into an empty store"
"${hf[@]}" -w 0 -r 3 $(export_md import) --prepare "rm -f $work/i.db $work/i.db-wal $work/i.db-shm" \
  -n "hostbook known-hosts import (200,000 lines)" "$hb --db $work/i.db known-hosts import $work/lines200k"
append import "import of 200,000 lines"
[ -n "$out" ] && echo "results written to $out" || true
