#!/bin/sh
# Makes hostbook-v5.db: the version-4 fixture migrated with the version-5 SQL exactly as the
# program runs it (Schema.migrations[4], written out by MigrationTests/testVersion5SQL),
# plus a row in every table version 5 added and a value in every column it added: two host
# aliases (host_aliases), the key restricted to SSHSIG namespaces (key_namespaces) and set
# up for git signing (key_git_identities), asking before each signature with a grant
# (keys.confirm, keys.grant_seconds), and two agent log rows: a refusal with its reason and
# decision, and a signature approved at a prompt with the client's process chain, through
# a forwarded agent (reason, decision, process_chain, forwarded_through).
# MigrationV5Tests opens a copy and checks that every row survives the later migrations.
# Run from the package root: testdata/hoststore/make-v5-fixture.sh. Needs sqlite3.
# Version 5 is released: re-run only to repair the fixture, never to change what it holds.
set -eu
out=testdata/hoststore/hostbook-v5.db
sql=$(mktemp)
tmp=$(mktemp)
trap 'rm -f "$sql" "$tmp"' EXIT
swift build --build-tests >/dev/null
HOSTBOOK_V5_SQL_OUT=$sql swift test --skip-build --filter 'MigrationTests/testVersion5SQL' >/dev/null
test -s "$sql"
cp testdata/hoststore/hostbook-v4.db "$tmp"
fp="'SHA256:88J9dwrJKtGBAZH5cqYBJKlMQJD02NcszvFMDbQjTOA'"
{
    echo "BEGIN;"
    cat "$sql"
    cat <<SQL
INSERT INTO host_aliases(alias, host_id) VALUES ('www', 2), ('jump', 1);
UPDATE keys SET confirm = 1, grant_seconds = 300 WHERE name = 'laptop';
INSERT INTO key_namespaces(key_id, namespace) VALUES (1, 'file'), (1, 'git');
INSERT INTO key_git_identities(key_id, email) VALUES (1, 'me@example.com');
INSERT INTO agent_log(at, outcome, key_name, key_fingerprint, destination, destination_fingerprint, forwarded, client_pid, client_executable,
                      reason, decision, process_chain, forwarded_through) VALUES
  ('2026-01-05T06:07:08.125Z', 'refused', 'laptop', 'SHA256:fixtureuserkey', 'web-1', $fp, 0, 4444, '/usr/bin/ssh',
   'the vault is locked; run ''hostbook vault unlock''', 'grant', 'pid 4444 /usr/bin/ssh: ssh web-1', NULL),
  ('2026-01-05T06:07:09.500Z', 'signed', 'laptop', 'SHA256:fixtureuserkey', 'web-1', $fp, 1, 4545, '/usr/bin/ssh',
   NULL, 'prompt', 'pid 4545 /usr/bin/ssh: ssh web-1' || char(10) || 'pid 4500 /usr/bin/bash: -bash', 'bastion');
PRAGMA user_version = 5;
COMMIT;
SQL
} | sqlite3 "$tmp"
rm -f "$out"
sqlite3 "$tmp" "VACUUM INTO '$out'"
for t in $(sqlite3 "$out" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
    n=$(sqlite3 "$out" "SELECT count(*) FROM \"$t\"")
    if [ "$n" -eq 0 ]; then echo "make-v5-fixture.sh: table $t has no rows; add one above" >&2; exit 1; fi
done
for c in confirm grant_seconds; do
    n=$(sqlite3 "$out" "SELECT count(*) FROM keys WHERE $c != 0")
    if [ "$n" -eq 0 ]; then echo "make-v5-fixture.sh: no key has $c set; set one above" >&2; exit 1; fi
done
for c in reason decision process_chain forwarded_through; do
    n=$(sqlite3 "$out" "SELECT count(*) FROM agent_log WHERE $c IS NOT NULL")
    if [ "$n" -eq 0 ]; then echo "make-v5-fixture.sh: no agent_log row has $c; add one above" >&2; exit 1; fi
done
echo "wrote $out (schema version $(sqlite3 "$out" 'PRAGMA user_version'))"
