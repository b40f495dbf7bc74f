#!/bin/sh
# Makes hostbook-v4.db: the version-3 fixture migrated with the version-4 SQL exactly as the
# program runs it (Schema.migrations[3], written out by MigrationTests/testVersion4SQL).
# Version 4 adds no table or column (it changes the known-hosts indexes), so the rows added
# here are ones written under the version-4 indexes: a plain known_hosts entry approved on
# first use with its event, and an agent refusal through a forwarded agent (a version-3
# column, empty until now). The fixture keeps its hashed rows and their stale pack.
# MigrationV4Tests opens a copy and checks that every row survives the later migrations.
# Run from the package root: testdata/hoststore/make-v4-fixture.sh. Needs sqlite3.
# Version 4 is released: re-run only to repair the fixture, never to change what it holds.
set -eu
out=testdata/hoststore/hostbook-v4.db
sql=$(mktemp)
tmp=$(mktemp)
trap 'rm -f "$sql" "$tmp"' EXIT
swift build --build-tests >/dev/null
HOSTBOOK_V4_SQL_OUT=$sql swift test --skip-build --filter 'MigrationTests/testVersion4SQL' >/dev/null
test -s "$sql"
cp testdata/hoststore/hostbook-v3.db "$tmp"
key="X'0000000B7373682D656432353531390000002003DA6E1EB3C523BFBF940E9DC4B8FABBAF163972E6E14A02D17CE4EFA00B02D2'"
fp="'SHA256:88J9dwrJKtGBAZH5cqYBJKlMQJD02NcszvFMDbQjTOA'"
{
    echo "BEGIN;"
    cat "$sql"
    cat <<SQL
INSERT INTO known_hosts(pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at, hashed, comment) VALUES
  ('plain.v4.example', 22, '', 'ssh-ed25519', $key, $fp, 'tofu', '2026-01-04T05:06:07Z', '2026-01-04T05:06:07Z', NULL, NULL);
INSERT INTO host_key_events(at, event, host, port, key_type, fingerprint, old_fingerprint, source) VALUES
  ('2026-01-04T05:06:07Z', 'approved', 'plain.v4.example', 22, 'ssh-ed25519', $fp, NULL, 'tofu');
INSERT INTO agent_log(at, outcome, key_name, key_fingerprint, destination, destination_fingerprint, forwarded, client_pid, client_executable) VALUES
  ('2026-01-04T05:06:08.250Z', 'refused', 'laptop', 'SHA256:fixtureuserkey', 'plain.v4.example', $fp, 1, 4343, '/usr/bin/ssh');
PRAGMA user_version = 4;
COMMIT;
SQL
} | sqlite3 "$tmp"
rm -f "$out"
sqlite3 "$tmp" "VACUUM INTO '$out'"
for t in $(sqlite3 "$out" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
    n=$(sqlite3 "$out" "SELECT count(*) FROM \"$t\"")
    if [ "$n" -eq 0 ]; then echo "make-v4-fixture.sh: table $t has no rows; add one above" >&2; exit 1; fi
done
echo "wrote $out (schema version $(sqlite3 "$out" 'PRAGMA user_version'))"
