#!/bin/sh
# Shell completion of a saved name among 10,000 hosts (goal: < 20 ms for the whole process):
#   hostbook __complete hosts -- web     what the completion scripts run on Tab (prefix filter)
#   hostbook __complete hosts            every name (the shell filters)
#   bash: one Tab on 'hostbook show host-12' with the generated script (the function and
#         the __complete it runs), as the difference of a bash that sources the script and
#         presses Tab against one that only sources it
#   hostbook --version                   process start-up, for reference
# The database is made by hostbook (schema) and sqlite3 (bulk rows). Needs hyperfine and sqlite3.
# Usage: benchmarks/complete.sh [--no-build]
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-build" ]; then swift build -c release --product hostbook >/dev/null; fi
HB=$PWD/.build/release/hostbook
work=$(mktemp -d "${TMPDIR:-/tmp}/hostbook-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

db=$work/hosts.db
"$HB" --db "$db" add seed --hostname seed.example >/dev/null
sqlite3 "$db" "
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
  INSERT INTO hosts(uuid, name, hostname, port, user, auth, source, created_at, updated_at)
  SELECT lower(hex(randomblob(16))), 'host-' || i, 'host-' || i || '.example.com', 22, 'deploy', 'agent', 'manual',
         '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n;
  PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
echo "hosts: $(HOSTBOOK_DB=$db "$HB" __complete hosts | wc -l)"

mkdir -p "$work/bin"; ln -s "$HB" "$work/bin/hostbook"
"$HB" completions bash > "$work/hostbook.bash"
cat > "$work/tab.bash" <<'SCRIPT'
source "$1"
[ "${2:-}" = tab ] || exit 0
COMP_WORDS=(hostbook show host-12); COMP_CWORD=2; _hostbook; [ ${#COMPREPLY[@]} -eq 111 ] || { echo "got ${#COMPREPLY[@]}" >&2; exit 1; }
SCRIPT

HOSTBOOK_DB=$db PATH="$work/bin:$PATH" hyperfine -N --warmup 20 --runs 200 \
    "$HB __complete hosts -- host-12" \
    "$HB __complete hosts" \
    "$HB --version"
HOSTBOOK_DB=$db PATH="$work/bin:$PATH" hyperfine --warmup 5 --runs 50 --shell=none \
    "bash --norc --noprofile $work/tab.bash $work/hostbook.bash tab" \
    "bash --norc --noprofile $work/tab.bash $work/hostbook.bash"
