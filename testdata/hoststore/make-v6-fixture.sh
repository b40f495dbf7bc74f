#!/bin/sh
# Makes hostbook-v6.db and what the version-6 program prints about the known hosts of every
# fixture it reads (testdata/hoststore/readers/vN/*: known-hosts list, list --wide, export,
# history, and --json of list and history, for the v4, v5 and v6 fixtures).
# The version-6 fixture is the version-5 fixture opened and written by the version-6 program
# itself (`hostbook` of commit fc3d3ae, given as $HOSTBOOK_V6): a known_hosts file imported
# (plain, [host]:port, hashed by ssh-keygen -H, a pattern list, @revoked, @cert-authority and
# a host certificate on an unmarked line), a key revoked by hand, the Tailscale devices of
# testdata/tailscale/status-rotation-before.json and then -after.json (a rotation replaces
# imported rows), one imported entry removed; plus a row in every table version 6 added
# (the bundle tables). MigrationV6Tests and KnownHostsReadersAcrossVersionsTests use them.
# Run from the package root: HOSTBOOK_V6=/path/to/v6/hostbook testdata/hoststore/make-v6-fixture.sh
# Needs sqlite3 and ssh-keygen. Version 6 is released: re-run only to repair the fixture.
set -eu
hb=${HOSTBOOK_V6:?give the version-6 hostbook as HOSTBOOK_V6}
out=testdata/hoststore/hostbook-v6.db
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/hostbook.db
cp testdata/hoststore/hostbook-v5.db "$db"
export HOSTBOOK_DB="$db" NO_COLOR=1 COLUMNS=200

ssh-keygen -q -t ed25519 -N '' -C '' -f "$work/host" 
ssh-keygen -q -t ecdsa -N '' -C '' -f "$work/host2"
ssh-keygen -q -t ed25519 -N '' -C '' -f "$work/ca"
ssh-keygen -q -s "$work/ca" -h -I v6-fixture -n cert.v6.example -V 20260101:20360101 "$work/host2.pub"
k1=$(cut -d' ' -f1,2 "$work/host.pub")
k2=$(cut -d' ' -f1,2 "$work/host2.pub")
ca=$(cut -d' ' -f1,2 "$work/ca.pub")
cert=$(cut -d' ' -f1,2 "$work/host2-cert.pub")
printf 'hashed.v6.example %s\n10.6.0.1 %s\n' "$k1" "$k2" > "$work/hashed"
ssh-keygen -q -H -f "$work/hashed" >/dev/null 2>&1
{
    echo "plain.v6.example $k1 a comment"
    echo "[ported.v6.example]:2222 $k2"
    cat "$work/hashed"
    echo "*.list.v6.example,!bad.list.v6.example $k1"
    echo "@revoked revoked.v6.example $k2"
    echo "@cert-authority *.ca.v6.example $ca"
    echo "cert.v6.example $cert"
    echo "gone.v6.example $k1"
} > "$work/known_hosts"
"$hb" known-hosts import "$work/known_hosts"
"$hb" known-hosts revoke plain.v6.example --key "$k2"
"$hb" import-tailscale testdata/tailscale/status-rotation-before.json --all
"$hb" import-tailscale testdata/tailscale/status-rotation-after.json --all
"$hb" known-hosts remove gone.v6.example
sqlite3 "$db" <<SQL
INSERT INTO bundle_signers (bundle, key_type, key_blob, fingerprint, added_at)
    SELECT 'team', key_type, key_blob, fingerprint, '2026-01-06T07:08:09Z' FROM known_hosts WHERE marker = 'cert-authority';
INSERT INTO bundle_subscriptions (bundle, url) VALUES ('team', 'https://git.example.com/team/hosts.git');
INSERT INTO bundle_applied (bundle, serial, digest, applied_at) VALUES ('team', 3, 'sha256:6d1c1b2e', '2026-01-06T07:08:10Z');
INSERT INTO bundle_snippets (snippet_id, bundle) VALUES (1, 'team');
SQL
test "$(sqlite3 "$db" 'PRAGMA user_version')" = 6
rm -f "$out"
sqlite3 "$db" "VACUUM INTO '$out'"
for t in $(sqlite3 "$out" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); do
    n=$(sqlite3 "$out" "SELECT count(*) FROM \"$t\"")
    if [ "$n" -eq 0 ]; then echo "make-v6-fixture.sh: table $t has no rows; add one above" >&2; exit 1; fi
done

# What the version-6 program prints for each fixture (after migrating a copy to version 6).
for v in 4 5 6; do
    dir=testdata/hoststore/readers/v$v
    mkdir -p "$dir"
    cp "testdata/hoststore/hostbook-v$v.db" "$work/v$v.db"
    export HOSTBOOK_DB="$work/v$v.db"
    "$hb" known-hosts list > "$dir/list.txt"
    "$hb" known-hosts list --wide > "$dir/list-wide.txt"
    "$hb" --json known-hosts list > "$dir/list.json"
    "$hb" known-hosts export > "$dir/export.txt"
    "$hb" known-hosts history > "$dir/history.txt"
    "$hb" known-hosts history --wide > "$dir/history-wide.txt"
    "$hb" --json known-hosts history > "$dir/history.json"
done
echo "wrote $out (schema version $(sqlite3 "$out" 'PRAGMA user_version')) and testdata/hoststore/readers"
