#!/bin/sh
# Rebuilds the small committed seed corpora in fuzz/corpus/<target>/ from testkeys/
# (run testkeys/make-pem-ppk-cert-keys.sh first) and a few keys made here with ssh-keygen.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
K="$ROOT/testkeys"
C="$ROOT/fuzz/corpus"
PASS=hostbook-fixture-pass
# Only this script's targets: other targets' seeds (e.g. known-hosts-line) are kept.
for t in pem ppk openssh-key public-line rfc4716 certificate krl; do rm -rf "${C:?}/$t"; mkdir -p "$C/$t"; done

for f in ecdsa256 ecdsa256.aes128 ecdsa384.aes192 rsa.des3 ecdsa256.pkcs8 ecdsa256.pkcs8-aes256-sha256 \
         ecdsa521.pkcs8-des3 ed25519.pkcs8 ed25519.pkcs8-aes256; do
    cp "$K/pem/$f" "$C/pem/$f"
done
for f in ed25519.v3.ppk ed25519.v2.ppk ed25519.v3-argon2id.ppk ecdsa256.v2-aes.ppk ecdsa384.v3.ppk rsa.v3.ppk; do
    cp "$K/ppk/$f" "$C/ppk/$f"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ssh-keygen -q -t ed25519 -N '' -C 'seed' -f "$tmp/ed25519" && cp "$tmp/ed25519" "$C/openssh-key/ed25519"
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'seed' -f "$tmp/ecdsa" && cp "$tmp/ecdsa" "$C/openssh-key/ecdsa256"
ssh-keygen -q -t rsa -b 1024 -N '' -C 'seed' -f "$tmp/rsa" && cp "$tmp/rsa" "$C/openssh-key/rsa1024"
# Encrypted with one bcrypt round so each run stays fast.
ssh-keygen -q -t ed25519 -N "$PASS" -a 1 -C 'seed' -f "$tmp/ed25519pw" && cp "$tmp/ed25519pw" "$C/openssh-key/ed25519-aes256ctr"
ssh-keygen -q -t ecdsa -b 256 -N "$PASS" -a 1 -Z aes256-gcm@openssh.com -f "$tmp/ecdsapw" && cp "$tmp/ecdsapw" "$C/openssh-key/ecdsa256-aes256gcm"

for b in rsa ecdsa256 ed25519; do cp "$K/pem/$b.pub" "$C/public-line/$b.pub"; cp "$K/pem/$b.rfc4716" "$C/rfc4716/$b"; done
printf 'restrict,command="echo \\"hi\\"",from="10.0.0.0/8" %s' "$(cat "$K/pem/ecdsa256.pub")" > "$C/public-line/with-options"
cp "$K/certs/user_ed25519_by_ed25519-cert.pub" "$C/public-line/certificate"
cp "$K/pem/ecdsa256.spki.pem" "$C/public-line/spki.pem"
cp "$K/pem/rsa.pkcs1-public.pem" "$C/public-line/pkcs1-public.pem"

for f in user_ed25519_by_ed25519 user_rsa_by_ecdsa256 user_ed25519_by_ecdsa384 user_ed25519_by_rsa256 host_ecdsa256_by_ed25519; do
    cut -d' ' -f2 "$K/certs/$f-cert.pub" | base64 -d > "$C/certificate/$f"
done
cp "$K/certs/user_rsa_by_ecdsa256-cert.pub" "$C/certificate/line"
# Key revocation lists from ssh-keygen -k: serials (a bitmap), a key id and a key; a SHA-256
# and a SHA-1 hash.
ssh-keygen -q -t ed25519 -N '' -f "$tmp/ca" && ssh-keygen -q -t ecdsa -N '' -f "$tmp/revoked"
printf 'serial: 1-3\nserial: 7\nid: alice@example\n' > "$tmp/spec"
ssh-keygen -k -f "$C/krl/serials-ids-key" -s "$tmp/ca.pub" "$tmp/spec" "$tmp/revoked.pub"
printf 'hash: %s\n' "$(ssh-keygen -lf "$tmp/ed25519.pub" | cut -d' ' -f2)" > "$tmp/spec"
ssh-keygen -k -f "$C/krl/sha256" "$tmp/spec"
printf 'sha1: %s\n' "$(cat "$tmp/ed25519.pub")" > "$tmp/spec"
ssh-keygen -k -f "$C/krl/sha1" "$tmp/spec"
du -sh "$C"
