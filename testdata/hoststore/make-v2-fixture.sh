#!/bin/sh
# Makes hostbook-v2.db: the version-1 fixture migrated with the version-2 SQL exactly as the
# program runs it (Schema.migrations[1], written out by MigrationTests/testVersion2SQL),
# plus a row in every table version 2 added. MigrationV2Tests opens a copy and checks that
# every row survives the later migrations. Run from the package root:
# testdata/hoststore/make-v2-fixture.sh. Needs sqlite3. Version 2 is released: re-run only
# to repair the fixture, never to change what it holds.
set -eu
out=testdata/hoststore/hostbook-v2.db
sql=$(mktemp)
tmp=$(mktemp)
trap 'rm -f "$sql" "$tmp"' EXIT
swift build --build-tests >/dev/null
HOSTBOOK_V2_SQL_OUT=$sql swift test --skip-build --filter 'MigrationTests/testVersion2SQL' >/dev/null
test -s "$sql"
cp testdata/hoststore/hostbook-v1.db "$tmp"
{
    echo "BEGIN;"
    cat "$sql"
    cat <<'SQL'
INSERT INTO tailscale_nodes(host_id, node_id, dns_name, os, online, last_seen, owner, tags, imported_at) VALUES
  (3, 'nXYZ123CNTRL', 'db.tail1234.ts.net.', 'linux', 1, '2026-01-02T03:04:05Z', 'me@example.com', 'tag:db', '2026-01-02T03:04:05Z');
PRAGMA user_version = 2;
COMMIT;
SQL
} | sqlite3 "$tmp"
rm -f "$out"
sqlite3 "$tmp" "VACUUM INTO '$out'"
for t in $(sqlite3 "$out" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
    n=$(sqlite3 "$out" "SELECT count(*) FROM \"$t\"")
    if [ "$n" -eq 0 ]; then echo "make-v2-fixture.sh: table $t has no rows; add one above" >&2; exit 1; fi
done
echo "wrote $out (schema version $(sqlite3 "$out" 'PRAGMA user_version'))"
