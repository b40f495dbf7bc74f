#!/bin/sh
# Makes hostbook-v3.db: the version-2 fixture migrated with the version-3 SQL exactly as the
# program runs it (Schema.migrations[2], written out by MigrationTests/testVersion3SQL),
# plus a row in every table version 3 added, and one known_hosts entry of each kind the
# version-4 indexes treat differently: a plain name, a name at another port, a pattern
# list, a hashed name with `hashed` filled in and one without (as another writer leaves
# it), each with its event. The key is a real Ed25519 key and the hashes real
# HMAC-SHA1 values, so MigrationV3Tests can check each entry after migrating a copy.
# Run from the package root: testdata/hoststore/make-v3-fixture.sh. Needs sqlite3.
# Version 3 is released: re-run only to repair the fixture, never to change what it holds.
set -eu
out=testdata/hoststore/hostbook-v3.db
sql=$(mktemp)
tmp=$(mktemp)
trap 'rm -f "$sql" "$tmp"' EXIT
swift build --build-tests >/dev/null
HOSTBOOK_V3_SQL_OUT=$sql swift test --skip-build --filter 'MigrationTests/testVersion3SQL' >/dev/null
test -s "$sql"
cp testdata/hoststore/hostbook-v2.db "$tmp"
key="X'0000000B7373682D656432353531390000002003DA6E1EB3C523BFBF940E9DC4B8FABBAF163972E6E14A02D17CE4EFA00B02D2'"
fp="'SHA256:88J9dwrJKtGBAZH5cqYBJKlMQJD02NcszvFMDbQjTOA'"
{
    echo "BEGIN;"
    cat "$sql"
    cat <<SQL
INSERT INTO ssh_config_hosts(host_id, alias, source_file, source_line, imported_at) VALUES
  (1, 'web1', '/home/me/.ssh/config', 12, '2026-01-03T04:05:06Z');
INSERT INTO agent_log(at, outcome, key_name, key_fingerprint, destination, destination_fingerprint, forwarded, client_pid, client_executable) VALUES
  ('2026-01-03T04:05:07Z', 'signed', 'laptop', 'SHA256:fixtureuserkey', 'web1', $fp, 0, 4242, '/usr/bin/ssh');
INSERT INTO known_hosts(pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at, hashed, comment) VALUES
  ('plain.v3.example', 22, '', 'ssh-ed25519', $key, $fp, 'import', '2026-01-03T04:05:08Z', NULL, NULL, 'a comment'),
  ('ported.v3.example', 2200, '', 'ssh-ed25519', $key, $fp, 'tofu', '2026-01-03T04:05:08Z', '2026-01-03T04:05:08Z', NULL, NULL),
  ('*.list.v3.example,!bad.list.v3.example', 0, '', 'ssh-ed25519', $key, $fp, 'import', '2026-01-03T04:05:08Z', NULL, NULL, NULL),
  ('|1|MDEyMzQ1Njc4OTo7PD0+P0BBQkM=|NHqngYD0SNFueUshVEm+DkMaNQ4=', 0, '', 'ssh-ed25519', $key, $fp, 'import', '2026-01-03T04:05:08Z', NULL,
   X'303132333435363738393A3B3C3D3E3F40414243347AA78180F448D16E794B215449BE0E431A350E', NULL),
  ('|1|UFFSU1RVVldYWVpbXF1eX2BhYmM=|P2AJLFlbyuD5PzBd9fAWz+uAwUM=', 0, '', 'ssh-ed25519', $key, $fp, 'import', '2026-01-03T04:05:08Z', NULL, NULL, NULL);
INSERT INTO host_key_events(at, event, host, port, key_type, fingerprint, old_fingerprint, source)
  SELECT first_seen, 'imported', pattern, port, key_type, fingerprint, NULL, source FROM known_hosts WHERE pattern != 'bastion.example.com' AND pattern NOT LIKE '|1|AAEC%';
UPDATE known_hosts_state SET hashed_generation = hashed_generation + 1;
PRAGMA user_version = 3;
COMMIT;
SQL
} | sqlite3 "$tmp"
rm -f "$out"
sqlite3 "$tmp" "VACUUM INTO '$out'"
for t in $(sqlite3 "$out" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
    n=$(sqlite3 "$out" "SELECT count(*) FROM \"$t\"")
    if [ "$n" -eq 0 ]; then echo "make-v3-fixture.sh: table $t has no rows; add one above" >&2; exit 1; fi
done
echo "wrote $out (schema version $(sqlite3 "$out" 'PRAGMA user_version'))"
