#!/bin/sh
# Makes hostbook-v1.db: a database at schema version 1 with rows in every table, from the
# version-1 SQL exactly as the program runs it (Schema.migrations[0], written out by the
# test MigrationTests/testVersion1SQL). The migration test opens a copy and checks that
# every row survives. Run from the package root: testdata/hoststore/make-v1-fixture.sh
# Needs sqlite3. Re-run it only while version 1 is unreleased: after that the fixture is
# what real databases look like, and must not change.
set -eu
out=testdata/hoststore/hostbook-v1.db
sql=$(mktemp)
trap 'rm -f "$sql"' EXIT
swift build --build-tests >/dev/null
HOSTBOOK_V1_SQL_OUT=$sql swift test --skip-build --filter 'MigrationTests/testVersion1SQL' >/dev/null
test -s "$sql"
rm -f "$out"
{
    cat "$sql"
    cat <<'SQL'
INSERT INTO meta(key, value) VALUES ('database_id', '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9'), ('created_at', '2026-01-02T03:04:05Z');
INSERT INTO keys(id, uuid, name, algorithm, bits, fingerprint, public_key, comment, format, created_at) VALUES
  (1, '11111111-2222-4333-8444-555555555555', 'laptop', 'ssh-ed25519', 256, 'SHA256:fixturefingerprint', X'0000000b7373682d65643235353139', 'me@laptop', 'openssh', '2026-01-02T03:04:05Z');
INSERT INTO hosts(id, uuid, name, hostname, port, user, auth, key_id, jump_host_id, note, source, source_id, created_at, updated_at) VALUES
  (1, 'aaaaaaaa-0000-4000-8000-000000000001', 'bastion', 'bastion.example.com', 2222, 'ops', 'key', 1, NULL, 'the way in', 'manual', NULL, '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z'),
  (2, 'aaaaaaaa-0000-4000-8000-000000000002', 'web-1', '10.0.0.5', 22, 'root', 'password', NULL, 1, NULL, 'manual', NULL, '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z'),
  (3, 'aaaaaaaa-0000-4000-8000-000000000003', 'db.ts', 'fd7a:115c:a1e0::1', 22, NULL, 'agent', NULL, NULL, NULL, 'tailscale', 'nXYZ123CNTRL', '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z');
INSERT INTO host_tags(host_id, tag) VALUES (1, 'infra'), (2, 'prod'), (2, 'web'), (3, 'tag:db');
INSERT INTO snippets(id, uuid, name, command, description, created_at, updated_at) VALUES
  (1, 'bbbbbbbb-0000-4000-8000-000000000001', 'disk', 'df -h | sort -k5 -r  ', 'free space, as typed (two trailing spaces)', '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z');
INSERT INTO known_hosts(id, pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at) VALUES
  (1, 'bastion.example.com', 2222, '', 'ssh-ed25519', X'0000000b7373682d65643235353139', 'SHA256:fixturehostkey', 'tofu', '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z');
INSERT INTO known_hosts(id, pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at, hashed, comment, learned) VALUES
  (2, '|1|AAECAwQFBgcICQoLDA0ODxAREhM=|FBUWFxgZGhscHR4fICEiIyQlJic=', 0, '', 'ssh-ed25519', X'0000000b7373682d65643235353139', 'SHA256:fixturehostkey', 'import', '2026-01-02T03:04:05Z', '2026-01-02T03:04:05Z',
   X'000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627', 'imported line', 'web-1.example');
INSERT INTO host_key_events(id, at, event, host, port, key_type, fingerprint, old_fingerprint, source) VALUES
  (1, '2026-01-02T03:04:05Z', 'approved', 'bastion.example.com', 2222, 'ssh-ed25519', 'SHA256:fixturehostkey', NULL, 'tofu');
PRAGMA user_version = 1;
SQL
} | sqlite3 "$out"
# Every table the version-1 SQL makes gets at least one row; the tables not named above
# are checked here so a new one cannot be forgotten.
for t in $(sqlite3 "$out" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
    n=$(sqlite3 "$out" "SELECT count(*) FROM \"$t\"")
    if [ "$n" -eq 0 ]; then
        case $t in
            known_hosts_hash_scans) sqlite3 "$out" "INSERT INTO known_hosts_hash_scans(lookup, generation) VALUES ('web-1.example', 1)" ;;
            # A pack row; known_hosts_state.pack_generation stays -1 (not current), so a
            # check scans the rows instead, as for any store whose pack is out of date.
            known_hosts_hash_pack) sqlite3 "$out" "INSERT INTO known_hosts_hash_pack(chunk, records) VALUES (0, X'00')" ;;
            *) echo "make-v1-fixture.sh: table $t has no rows; add one above" >&2; exit 1 ;;
        esac
    fi
done
echo "wrote $out (schema version $(sqlite3 "$out" 'PRAGMA user_version'))"
