#!/bin/sh
# Makes hostbook-v1.db: a database at schema version 1 with rows in every table, from the
# version-1 SQL exactly as the sources declare it (CoreSchema.v1, KeysSchema.v1,
# KnownHostsSchema.v1). The migration test opens a copy and checks that every row survives.
# Run from the package root: testdata/hoststore/make-v1-fixture.sh
set -eu
out=testdata/hoststore/hostbook-v1.db
rm -f "$out"
v1_sql() { # the text between `static let v1 = """` and the closing `"""` of a Swift file
    sed -n '/static let v1 = """/,/^    """/p' "$1" | sed '1d;$d' | sed 's/^    //'
}
{
    v1_sql Sources/HostStore/Database/CoreSchema.swift
    v1_sql Sources/HostStore/Keys/KeysSchema.swift
    v1_sql Sources/HostStore/KnownHosts/KnownHostsSchema.swift
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
INSERT INTO host_key_events(id, at, event, host, port, key_type, fingerprint, old_fingerprint, source) VALUES
  (1, '2026-01-02T03:04:05Z', 'approved', 'bastion.example.com', 2222, 'ssh-ed25519', 'SHA256:fixturehostkey', NULL, 'tofu');
PRAGMA user_version = 1;
SQL
} | sqlite3 "$out"
echo "wrote $out (schema version $(sqlite3 "$out" 'PRAGMA user_version'))"
