#!/usr/bin/env bash
# known-hosts benchmark (benchmarks/README.md, "known-hosts"): `hostbook known-hosts check`
# side by side with `ssh-keygen -F` on the same 100,000-host known_hosts, plain and hashed
# with `ssh-keygen -H` (each imported once), a check in a 1,000,000-entry store, and the
# import of 200,000 lines; and 100,000 hosts with their addresses hashed by `ssh-keygen -H`
# (200,000 hashed lines) imported beside `ssh-keygen -H` doing that hashing, with the
# database's size against the file's and where its bytes go (SQLite's dbstat).
# Release build, one run, hyperfine.
#
# Issue 35: the HMAC-SHA1 floor (openssl speed, both cores) beside the 1,000,000-line hashed
# check, the growth of the import from 100,000 to 200,000 hashed lines, and a summary of
# every ratio at the end.
#
# Usage: benchmarks/known-hosts.sh [RESULTS.md]   (needs python3, ssh-keygen, hyperfine, sqlite3, openssl)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-}
swift build -c release --product hostbook >/dev/null
hb="$(swift build -c release --show-bin-path)/hostbook"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gen() { python3 benchmarks/known-hosts-gen.py "$@"; }
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
imports="$work/imports.md"
{ echo; echo "### imports used by the checks below (one run each)"; echo
  echo "| file | entries | wall (s) | CPU user+sys (s) |"; echo "|---|---|---|---|"; } > "$imports"
for f in plain hashed lines1m; do
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$hb" --db "$work/$f.db" known-hosts import "$work/$f"
  read -r wall user sys < "$work/time"
  echo "| $f | $(wc -l < "$work/$f") | $wall | $(printf "%.2f" "$(echo "$user + $sys" | bc)") |" >> "$imports"
done
cat "$imports"

hf=(hyperfine -N --style basic)
[ -n "$out" ] && { echo "Recorded $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores." > "$out"; cat "$imports" >> "$out"; }
# Every hyperfine run exports JSON; the table adds CPU time (user + system), which says
# what hostbook costs even when other work on a shared machine inflates the wall clock.
export_md() { echo "--export-json $work/$1.json"; }
append() {
  python3 - "$work/$1.json" "$2" <<'PY' | tee -a "${out:-/dev/null}"
import json, sys
runs = json.load(open(sys.argv[1]))["results"]
unit, scale = ("s", 1) if min(r["mean"] for r in runs) >= 1 else ("ms", 1000)
print(f"\n### {sys.argv[2]}\n")
print(f"| command | wall mean ± σ ({unit}) | wall min ({unit}) | CPU user+sys ({unit}) |")
print("|---|---|---|---|")
for r in runs:
    f = lambda v: f"{v * scale:.1f}" if unit == "ms" else f"{v:.2f}"
    print(f"| {r['command']} | {f(r['mean'])} ± {f(r['stddev'])} | {f(r['min'])} | {f(r['user'] + r['system'])} |")
PY
}

echo "== check vs ssh-keygen -F, 100,000 hosts"
"${hf[@]}" -w 3 -r 30 $(export_md check100k) \
  -n "ssh-keygen -F (plain file)" "ssh-keygen -F $name -f $work/plain" \
  -n "hostbook check (plain import)" "$hb --db $work/plain.db known-hosts check $name --key '$key'" \
  -n "ssh-keygen -F (hashed file)" "ssh-keygen -F $name -f $work/hashed" \
  -n "hostbook check (hashed import)" "$hb --db $work/hashed.db known-hosts check $name --key '$key'"
append check100k "check at 100,000 hosts"

echo "== first check of a name in the hashed store (a check remembers nothing: every check is a first one)"
"${hf[@]}" -i -w 1 -r 15 $(export_md cold) \
  -n "ssh-keygen -F (hashed file)" "ssh-keygen -F $name -f $work/hashed" \
  -n "hostbook check, first time (hashed import)" "$hb --db $work/hashed.db known-hosts check $name --key '$key'" \
  -n "hostbook check, a name not stored (hashed import, exit 10)" "$hb --db $work/hashed.db known-hosts check absent.bench.example --key '$key'"
append cold "first check of a name, hashed store"
python3 - "$work/cold.json" <<'PY' | tee -a "${out:-/dev/null}" "$work/summary"
import json, sys
r = {x["command"].split(" (")[0]: x for x in json.load(open(sys.argv[1]))["results"]}
a, b = r["hostbook check, first time"], r["ssh-keygen -F"]
print(f"\nssh-keygen -F / hostbook first check, 100,000 hashed hosts: {b['mean'] / a['mean']:.1f}x on wall means, "
      f"{(b['user'] + b['system']) / (a['user'] + a['system']):.1f}x on CPU (goal >= 10)")
PY
# A check writes nothing: the database file is the same bytes before and after.
sum_before=$(sha256sum "$work/hashed.db" | cut -d' ' -f1)
"$hb" --db "$work/hashed.db" known-hosts check "$name" --key "$key" >/dev/null
[ "$sum_before" = "$(sha256sum "$work/hashed.db" | cut -d' ' -f1)" ] || { echo "a check changed the database" >&2; exit 1; }

echo "== check in a 1,000,000-entry store"
key1m=$(grep "^$name " "$work/lines1m" | cut -d' ' -f2,3)
"${hf[@]}" -w 3 -r 30 $(export_md check1m) \
  -n "hostbook check (1M entries)" "$hb --db $work/lines1m.db known-hosts check $name --key '$key1m'" \
  -n "hostbook check, port 2222 (1M entries)" "$hb --db $work/lines1m.db known-hosts check host50007.bench.example --port 2222 --key '$(grep -F "$ported " "$work/lines1m" | cut -d' ' -f2,3)'" \
  -n "hostbook --version (start-up)" "$hb --version"
append check1m "check in a 1,000,000-entry store"

echo "== the HMAC-SHA1 floor (issue 35): SHA-1 compressions per second on both cores (OpenSSL, 8 KiB messages)"
# A check of a hashed name costs two SHA-1 compressions per entry from the stored midstates
# (HashedNamePack); OpenSSL's throughput on long messages, both cores at once, is the rate of
# compressions alone. The floor for N entries is 2N at that rate.
# openssl speed counts CPU time, so each rate is what a core gives when it runs, whatever
# else runs on the machine; on two hyperthreads of one core "both" is far from twice one.
sha1_bytes=$(openssl speed -seconds 3 -bytes 8192 -multi 2 -mr sha1 2>/dev/null | sed -n 's/^+F:[0-9]*:sha1:\([0-9.]*\)$/\1/p' | tail -1)
sha1_one=$(openssl speed -seconds 3 -bytes 8192 -mr sha1 2>/dev/null | sed -n 's/^+F:[0-9]*:sha1:\([0-9.]*\)$/\1/p' | tail -1)
compressions=$(python3 -c "print(int(float('$sha1_bytes') / 64))")
compressions_one=$(python3 -c "print(int(float('$sha1_one') / 64))")
echo "SHA-1 compressions per second: both cores $compressions, one core $compressions_one (load average $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "${out:-/dev/null}"

echo "== check in a 1,000,000-line hashed store (ssh-keygen -H of the 1M file) beside start-up (issue 35: goal <= 1.3x floor + start-up)"
cp "$work/lines1m" "$work/hashed1m"
ssh-keygen -q -H -f "$work/hashed1m" >/dev/null 2>&1
rm -f "$work/hashed1m.old"
"$hb" --db "$work/hashed1m.db" known-hosts import "$work/hashed1m" >/dev/null
"${hf[@]}" -w 2 -r 15 $(export_md check1mhashed) \
  -n "hostbook check (1M hashed entries)" "$hb --db $work/hashed1m.db known-hosts check $name --key '$key1m'" \
  -n "hostbook start-up (--version)" "$hb --version"
append check1mhashed "check in a 1,000,000-line hashed store (load average $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$work/check1mhashed.json" "$compressions" "$compressions_one" <<'PY' | tee -a "${out:-/dev/null}" "$work/summary"
import json, sys
r = {x["command"].split(" (")[0]: x for x in json.load(open(sys.argv[1]))["results"]}
check, start = r["hostbook check"], r["hostbook start-up"]
cpu = lambda x: x["user"] + x["system"]
floor = 2 * 1_000_000 / int(sys.argv[2])        # wall, both cores
floor_cpu = 2 * 1_000_000 / int(sys.argv[3])    # CPU time of the same compressions
print(f"\ncheck at 1,000,000 hashed lines / (HMAC-SHA1 floor + start-up): "
      f"{check['mean'] / (floor + start['mean']):.2f} on wall means ({check['mean'] * 1000:.1f} ms against floor {floor * 1000:.1f} ms "
      f"+ start-up {start['mean'] * 1000:.1f} ms), {check['min'] / (floor + start['min']):.2f} on minima; "
      f"{cpu(check) / (floor_cpu + cpu(start)):.2f} on CPU ({cpu(check) * 1000:.1f} ms against {floor_cpu * 1000:.1f} + {cpu(start) * 1000:.1f} ms) (goal <= 1.3)")
PY
rm -f "$work/hashed1m" "$work/hashed1m.db"*

echo "== import of 200,000 lines into an empty store"
"${hf[@]}" -w 0 -r 3 $(export_md import) --prepare "rm -f $work/i.db $work/i.db-wal $work/i.db-shm" \
  -n "hostbook known-hosts import (200,000 lines)" "$hb --db $work/i.db known-hosts import $work/lines200k"
append import "import of 200,000 lines"

echo "== 100,000 hosts hashed by ssh-keygen -H (200,000 lines): ssh-keygen -H itself, then hostbook's import of its output"
gen 100000 "$work/addr" --addresses
cp "$work/addr" "$work/hashed200k"
ssh-keygen -q -H -f "$work/hashed200k" >/dev/null 2>&1
rm -f "$work/hashed200k.old"
"${hf[@]}" -w 0 -r 3 $(export_md hashedimport) \
  --prepare "sh -c 'rm -f $work/h.db $work/h.db-wal $work/h.db-shm $work/addr.tmp.old; cp $work/addr $work/addr.tmp'" \
  -n "ssh-keygen -H (100,000 hosts into 200,000 hashed lines)" "ssh-keygen -q -H -f $work/addr.tmp" \
  -n "hostbook known-hosts import (those 200,000 hashed lines)" "$hb --db $work/h.db known-hosts import $work/hashed200k"
append hashedimport "import of 200,000 lines hashed by ssh-keygen -H (load average $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$work/hashedimport.json" <<'PY' | tee -a "${out:-/dev/null}" "$work/summary"
import json, sys
r = {x["command"].split(" (")[0]: x for x in json.load(open(sys.argv[1]))["results"]}
a, b = r["hostbook known-hosts import"], r["ssh-keygen -H"]
print(f"\nhostbook import / ssh-keygen -H: {a['mean'] / b['mean']:.2f} on wall means, {(a['user'] + a['system']) / (b['user'] + b['system']):.2f} on CPU (goal <= 2)")
PY
db200k=$(stat -c %s "$work/h.db")
python3 -c "print(f'store / text, 200,000 hashed lines: {$db200k / $(stat -c %s "$work/hashed200k"):.2f} ({$db200k:,} bytes) (goal <= 2)')" | tee -a "${out:-/dev/null}" "$work/summary"

echo "== growth: import of 100,000 hashed lines (50,000 hosts) against the 200,000 above (issue 35: 2x lines <= 2.2x time)"
gen 50000 "$work/addr100k" --addresses
ssh-keygen -q -H -f "$work/addr100k" >/dev/null 2>&1
rm -f "$work/addr100k.old"
"${hf[@]}" -w 0 -r 3 $(export_md half) --prepare "rm -f $work/half.db $work/half.db-wal $work/half.db-shm" \
  -n "hostbook known-hosts import (100,000 hashed lines)" "$hb --db $work/half.db known-hosts import $work/addr100k"
append half "import of 100,000 hashed lines (load average $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$work/half.json" "$work/hashedimport.json" "$(stat -c %s "$work/half.db")" "$db200k" <<'PY' | tee -a "${out:-/dev/null}" "$work/summary"
import json, sys
half = json.load(open(sys.argv[1]))["results"][0]
full = {x["command"].split(" (")[0]: x for x in json.load(open(sys.argv[2]))["results"]}["hostbook known-hosts import"]
cpu = lambda x: x["user"] + x["system"]
print(f"\ngrowth, 100,000 -> 200,000 hashed lines: import {full['mean'] / half['mean']:.2f}x wall, {cpu(full) / cpu(half):.2f}x CPU "
      f"(goal <= 2.2); store {int(sys.argv[4]) / int(sys.argv[3]):.2f}x ({int(sys.argv[3]):,} -> {int(sys.argv[4]):,} bytes)")
PY
# Where the bytes go: every table and index of the database the last run wrote.
sqlite3 "$work/h.db" "SELECT name, SUM(pgsize), SUM(payload), SUM(unused), COUNT(*) FROM dbstat GROUP BY name HAVING SUM(pgsize) > 4096 ORDER BY 2 DESC" \
  | python3 -c '
import sys
db, text, entries = int(sys.argv[1]), int(sys.argv[2]), 200000
print(f"\n### where the bytes go (database {db:,} bytes, text file {text:,} bytes: {db / text:.2f}x)\n")
print("| table or index | bytes | bytes per entry | payload | unused | pages |"); print("|---|---|---|---|---|---|")
for line in sys.stdin:
    name, size, payload, unused, pages = line.strip().split("|")
    print(f"| {name} | {int(size):,} | {int(size) / entries:.0f} | {int(payload):,} | {int(unused):,} | {pages} |")
' "$(stat -c %s "$work/h.db")" "$(stat -c %s "$work/hashed200k")" | tee -a "${out:-/dev/null}"
echo; echo "== issue 35, each ratio paired with ssh-keygen or its floor in this run (load average $(cut -d' ' -f1-3 /proc/loadavg))"
cat "$work/summary"
[ -n "$out" ] && echo "results written to $out" || true
