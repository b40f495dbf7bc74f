#!/bin/sh
# Whole-process timings of the host commands on large databases (release build):
#   hostbook list --json   with 1,000 / 10,000 / 100,000 hosts   (goal: < 50 ms at 10,000)
#   hostbook show NAME     with 1,000 / 10,000 / 100,000 hosts   (goal: < 20 ms at 100,000,
#                                                                 growing no faster than log n)
#   hostbook --version     process start-up, for reference
# The databases are made by hostbook (schema) and sqlite3 (bulk rows: 2 tags per host,
# every tenth host with a jump host). Needs hyperfine and sqlite3.
# Usage: benchmarks/hosts.sh [--no-build]
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-build" ]; then swift build -c release --product hostbook >/dev/null; fi
HB=$PWD/.build/release/hostbook
work=$(mktemp -d "${TMPDIR:-/tmp}/hostbook-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

make_db() { # $1 = number of hosts
    db=$work/hosts-$1.db
    "$HB" --db "$db" add seed --hostname seed.example >/dev/null
    sqlite3 "$db" "
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1 - 1)
      INSERT INTO hosts(uuid, name, hostname, port, user, auth, jump_host_id, note, source, created_at, updated_at)
      SELECT lower(hex(randomblob(16))), 'host-' || i, 'host-' || i || '.example.com', 22 + (i % 3), 'user' || (i % 7),
             'agent', CASE WHEN i % 10 = 0 THEN 1 END, CASE WHEN i % 5 = 0 THEN 'note ' || i END, 'manual',
             '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n;
      INSERT INTO host_tags(host_id, tag) SELECT id, 'env' || (id % 3) FROM hosts;
      INSERT INTO host_tags(host_id, tag) SELECT id, 'team' || (id % 11) FROM hosts;
      PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
    echo "$db"
}

for n in 1000 10000 100000; do make_db $n >/dev/null; done
echo "hostbook $("$HB" --version | cut -d' ' -f2), $(nproc) cores, $(uname -r)"
echo

# One table row per command: wall-clock mean ± σ and minimum, and the CPU time the process
# used (user + system), which is what the machine's other load does not inflate.
run() { # $1 = title, then hyperfine arguments
    title=$1; shift
    hyperfine -N --warmup 5 --min-runs 30 --style none --export-json "$work/out.json" "$@" >/dev/null 2>&1
    echo "### $title"
    echo "| command | wall mean ± σ (ms) | wall min (ms) | CPU user+sys (ms) |"
    echo "|---|---|---|---|"
    awk -F': ' '
        /"command"/ { gsub(/^"|",?$/, "", $2); cmd = $2 }
        /"mean"/    { gsub(/,/, "", $2); mean = $2 }
        /"stddev"/  { gsub(/,/, "", $2); sd = $2 }
        /"user"/    { gsub(/,/, "", $2); user = $2 }
        /"system"/  { gsub(/,/, "", $2); sys = $2 }
        /"min"/     { gsub(/,/, "", $2); min = $2 }
        /"exit_codes"/ { printf "| %s | %.1f ± %.1f | %.1f | %.1f |\n", cmd, mean * 1000, sd * 1000, min * 1000, (user + sys) * 1000 }
    ' "$work/out.json"
    echo
}

run "start-up" -n "hostbook version" "$HB --version"
run "list --json" \
    -n "list --json, 1,000 hosts" "$HB --db $work/hosts-1000.db list --json" \
    -n "list --json, 10,000 hosts" "$HB --db $work/hosts-10000.db list --json" \
    -n "list --json, 100,000 hosts" "$HB --db $work/hosts-100000.db list --json"
run "list (table)" -n "list, 10,000 hosts" "$HB --db $work/hosts-10000.db list"
run "show NAME" \
    -n "show, 1,000 hosts" "$HB --db $work/hosts-1000.db show host-500" \
    -n "show, 10,000 hosts" "$HB --db $work/hosts-10000.db show host-5000" \
    -n "show, 100,000 hosts" "$HB --db $work/hosts-100000.db show host-50000" \
    -n "show --json, 100,000 hosts" "$HB --db $work/hosts-100000.db show host-50000 --json"
