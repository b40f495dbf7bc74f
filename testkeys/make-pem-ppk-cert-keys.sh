#!/bin/sh
# Regenerates the PEM / PKCS#8 / RFC 4716, PuTTY .ppk and OpenSSH certificate fixtures
# under testkeys/pem, testkeys/ppk and testkeys/certs, with the tools that define the
# formats: ssh-keygen (OpenSSH 9.2), openssl (3.0) and puttygen (0.78).
#
# Every directory has a MANIFEST (tab-separated, one fixture a line) that the
# table-driven tests in Tests/KeyFormatsTests read, and beside each key the expected
# `ssh-keygen -l` line of its public half (`BASE.fp`).
#
#   testkeys/pem/MANIFEST:   file  format  cipher  base      (format "unsupported": refused)
#   testkeys/ppk/MANIFEST:   file  format  expect  base      (expect: ok | unsupported)
#   testkeys/certs/MANIFEST: file  role  ca  sigalg  key_id  principals  serial
#
# The outputs are committed; run this only to regenerate them (keys change every run).
set -eu
cd "$(dirname "$0")"
export TZ=UTC LC_ALL=C
PASS=hostbook-fixture-pass

rm -rf pem ppk certs
mkdir -p pem ppk certs
printf '%s' "$PASS" > pem/PASSPHRASE.txt
printf '%s' "$PASS" > ppk/PASSPHRASE.txt

fp() { ssh-keygen -l -f "$1" > "$2"; }

# ---------------------------------------------------------------- PEM / PKCS#8
cd pem
printf 'file\tformat\tcipher\tbase\n' > MANIFEST
add() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> MANIFEST; }

# Base keys: RSA 2048, ECDSA P-256/384/521 as PKCS#1 / SEC1 without a passphrase.
ssh-keygen -q -t rsa -b 2048 -m PEM -N '' -C '' -f rsa
ssh-keygen -q -t ecdsa -b 256 -m PEM -N '' -C '' -f ecdsa256
ssh-keygen -q -t ecdsa -b 384 -m PEM -N '' -C '' -f ecdsa384
ssh-keygen -q -t ecdsa -b 521 -m PEM -N '' -C '' -f ecdsa521
for b in rsa ecdsa256 ecdsa384 ecdsa521; do fp "$b.pub" "$b.fp"; done
add rsa pem-pkcs1 - rsa
for b in ecdsa256 ecdsa384 ecdsa521; do add "$b" pem-sec1 - "$b"; done

# Traditional encrypted PEM: ssh-keygen writes AES-128-CBC; openssl for the others.
cp rsa rsa.aes128 && ssh-keygen -q -p -m PEM -N "$PASS" -f rsa.aes128
add rsa.aes128 pem-pkcs1 AES-128-CBC rsa
cp ecdsa256 ecdsa256.aes128 && ssh-keygen -q -p -m PEM -N "$PASS" -f ecdsa256.aes128
add ecdsa256.aes128 pem-sec1 AES-128-CBC ecdsa256
openssl rsa -traditional -in rsa -aes256 -passout "pass:$PASS" -out rsa.aes256 2>/dev/null
add rsa.aes256 pem-pkcs1 AES-256-CBC rsa
openssl rsa -traditional -in rsa -des3 -passout "pass:$PASS" -out rsa.des3 2>/dev/null
add rsa.des3 pem-pkcs1 DES-EDE3-CBC rsa
openssl ec -in ecdsa384 -aes192 -passout "pass:$PASS" -out ecdsa384.aes192 2>/dev/null
add ecdsa384.aes192 pem-sec1 AES-192-CBC ecdsa384
openssl ec -in ecdsa521 -des3 -passout "pass:$PASS" -out ecdsa521.des3 2>/dev/null
add ecdsa521.des3 pem-sec1 DES-EDE3-CBC ecdsa521

# PKCS#8: ssh-keygen writes plain and PBES2(PBKDF2-HMAC-SHA256, AES-128-CBC).
cp rsa rsa.pkcs8 && ssh-keygen -q -p -m PKCS8 -N '' -f rsa.pkcs8
add rsa.pkcs8 pkcs8 - rsa
cp ecdsa256 ecdsa256.pkcs8 && ssh-keygen -q -p -m PKCS8 -N '' -f ecdsa256.pkcs8
add ecdsa256.pkcs8 pkcs8 - ecdsa256
# What `openssl pkcs12 -nodes` prints: attribute lines before the PEM block.
{ printf 'Bag Attributes\n    localKeyID: 01 00 00 00\nKey Attributes: <No Attributes>\n'; cat ecdsa256.pkcs8; } > ecdsa256.pkcs8-bag-attributes
add ecdsa256.pkcs8-bag-attributes pkcs8 - ecdsa256
cp rsa rsa.pkcs8-aes128 && ssh-keygen -q -p -m PKCS8 -N "$PASS" -f rsa.pkcs8-aes128
add rsa.pkcs8-aes128 pkcs8 AES-128-CBC rsa
cp ecdsa384 ecdsa384.pkcs8-aes128 && ssh-keygen -q -p -m PKCS8 -N "$PASS" -f ecdsa384.pkcs8-aes128
add ecdsa384.pkcs8-aes128 pkcs8 AES-128-CBC ecdsa384
# openssl pkcs8: PBES2 with HMAC-SHA1 / SHA-256 PRFs, AES-256 and 3DES; PBES1 (PKCS#12 3DES).
openssl pkcs8 -topk8 -in rsa -v2 aes-256-cbc -v2prf hmacWithSHA1 -passout "pass:$PASS" -out rsa.pkcs8-aes256-sha1
add rsa.pkcs8-aes256-sha1 pkcs8 AES-256-CBC rsa
openssl pkcs8 -topk8 -in ecdsa256 -v2 aes-256-cbc -v2prf hmacWithSHA256 -passout "pass:$PASS" -out ecdsa256.pkcs8-aes256-sha256
add ecdsa256.pkcs8-aes256-sha256 pkcs8 AES-256-CBC ecdsa256
openssl pkcs8 -topk8 -in ecdsa521 -v2 des3 -passout "pass:$PASS" -out ecdsa521.pkcs8-des3
add ecdsa521.pkcs8-des3 pkcs8 DES-EDE3-CBC ecdsa521
openssl pkcs8 -topk8 -in rsa -v1 PBE-SHA1-3DES -passout "pass:$PASS" -out rsa.pkcs8-pbes1-3des
add rsa.pkcs8-pbes1-3des pkcs8 PBE-SHA1-3DES rsa

# Ed25519 in PKCS#8 (OpenSSH 9.2 cannot read it: the expected public line is built from
# the raw public key, the last 32 bytes of the SubjectPublicKeyInfo DER).
openssl genpkey -algorithm ed25519 -out ed25519.pkcs8 2>/dev/null
python3 - <<'PY'
import base64, struct, subprocess
der = subprocess.run(["openssl", "pkey", "-in", "ed25519.pkcs8", "-pubout", "-outform", "DER"],
                     check=True, capture_output=True).stdout
s = lambda b: struct.pack(">I", len(b)) + b
blob = s(b"ssh-ed25519") + s(der[-32:])
open("ed25519.pub", "w").write("ssh-ed25519 " + base64.b64encode(blob).decode() + "\n")
PY
fp ed25519.pub ed25519.fp
add ed25519.pkcs8 pkcs8 - ed25519
openssl pkcs8 -topk8 -in ed25519.pkcs8 -v2 aes-256-cbc -passout "pass:$PASS" -out ed25519.pkcs8-aes256
add ed25519.pkcs8-aes256 pkcs8 AES-256-CBC ed25519

# What hostbook refuses as unsupported (format column "unsupported"): DSA (PKCS#1-style and
# PKCS#8), a curve OpenSSH lacks (secp256k1), and a PBES1 scheme OpenSSL 3 keeps in its
# legacy provider (PBE-MD5-DES).
ssh-keygen -q -t dsa -m PEM -N '' -f dsa && rm -f dsa.pub
add dsa unsupported - -
openssl pkcs8 -topk8 -nocrypt -in dsa -out dsa.pkcs8
add dsa.pkcs8 unsupported - -
openssl ecparam -name secp256k1 -genkey -noout -out secp256k1
add secp256k1 unsupported - -
openssl pkcs8 -topk8 -in ecdsa256 -v1 PBE-MD5-DES -passout "pass:$PASS" -provider legacy -provider default -out ecdsa256.pkcs8-pbes1-md5-des
add ecdsa256.pkcs8-pbes1-md5-des unsupported PBE-MD5-DES -
# More PBKDF2 iterations than hostbook allows (a hostile file must not spin for minutes).
openssl pkcs8 -topk8 -in ecdsa256 -v2 aes-256-cbc -iter 5000000 -passout "pass:$PASS" -out ecdsa256.pkcs8-too-many-iterations
add ecdsa256.pkcs8-too-many-iterations unsupported AES-256-CBC -

# A well-formed DEK-Info file whose plaintext (correct padding, right passphrase) is not
# DER: indistinguishable from a wrong passphrase that happens to give valid padding, so it
# must be reported as a wrong passphrase (format column "wrong-passphrase").
IV=00112233445566778899AABBCCDDEEFF
KEY=$(openssl enc -aes-128-cbc -md md5 -pass "pass:$PASS" -S 0011223344556677 -iv $IV -P 2>/dev/null | sed -n 's/^key=//p')
{
    printf -- '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,%s\n\n' "$IV"
    printf 'this is not DER, but it is padded correctly' | openssl enc -aes-128-cbc -K "$KEY" -iv $IV -nosalt | base64 -w 64
    printf -- '-----END RSA PRIVATE KEY-----\n'
} > not-der-inside.aes128
add not-der-inside.aes128 wrong-passphrase AES-128-CBC -

# RFC 4716 public keys (ssh-keygen -e), one per base key.
for b in rsa ecdsa256 ecdsa384 ecdsa521 ed25519; do ssh-keygen -e -f "$b.pub" > "$b.rfc4716"; done
# PEM public keys: SubjectPublicKeyInfo (ssh-keygen -e -m PKCS8; openssl for Ed25519,
# which ssh-keygen 9.2 cannot export) and PKCS#1 RSAPublicKey (-m PEM).
for b in rsa ecdsa256 ecdsa384 ecdsa521; do ssh-keygen -e -m PKCS8 -f "$b.pub" > "$b.spki.pem"; done
openssl pkey -in ed25519.pkcs8 -pubout -out ed25519.spki.pem
ssh-keygen -e -m PEM -f rsa.pub > rsa.pkcs1-public.pem
cd ..

# ---------------------------------------------------------------- PuTTY .ppk
cd ppk
printf 'file\tformat\texpect\tbase\n' > MANIFEST
addp() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> MANIFEST; }
KDF=memory=8192,passes=1,parallelism=1
ssh-keygen -q -t ed25519 -N '' -C 'ed25519 ppk fixture' -f ed25519
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'ecdsa256 ppk fixture' -f ecdsa256
ssh-keygen -q -t ecdsa -b 384 -N '' -C 'ecdsa384 ppk fixture' -f ecdsa384
ssh-keygen -q -t ecdsa -b 521 -N '' -C '' -f ecdsa521
ssh-keygen -q -t rsa -b 2048 -N '' -C 'rsa ppk fixture' -f rsa
for b in ed25519 ecdsa256 ecdsa384 ecdsa521 rsa; do
    fp "$b.pub" "$b.fp"
    puttygen "$b" -O private -o "$b.v3.ppk"
    addp "$b.v3.ppk" ppk-v3 ok "$b"
    puttygen "$b" -O private -o "$b.v2.ppk" --ppk-param version=2
    addp "$b.v2.ppk" ppk-v2 ok "$b"
    puttygen "$b" -O private -o "$b.v2-aes.ppk" --new-passphrase PASSPHRASE.txt --ppk-param version=2
    addp "$b.v2-aes.ppk" ppk-v2 ok "$b"
    puttygen "$b" -O private -o "$b.v3-argon2id.ppk" --new-passphrase PASSPHRASE.txt --ppk-param "kdf=argon2id,$KDF"
    addp "$b.v3-argon2id.ppk" ppk-v3 ok "$b"
done
# libsodium's Argon2i needs at least 3 passes.
puttygen ed25519 -O private -o ed25519.v3-argon2i.ppk --new-passphrase PASSPHRASE.txt --ppk-param kdf=argon2i,memory=8192,passes=3,parallelism=1
addp ed25519.v3-argon2i.ppk ppk-v3 ok ed25519
puttygen rsa -O private -o rsa.v3-argon2i.ppk --new-passphrase PASSPHRASE.txt --ppk-param kdf=argon2i,memory=8192,passes=3,parallelism=1
addp rsa.v3-argon2i.ppk ppk-v3 ok rsa
# What libsodium cannot do: Argon2d, parallelism > 1, Argon2i with fewer than 3 passes.
puttygen ed25519 -O private -o ed25519.v3-argon2d.ppk --new-passphrase PASSPHRASE.txt --ppk-param "kdf=argon2d,$KDF"
addp ed25519.v3-argon2d.ppk ppk-v3 unsupported ed25519
puttygen ed25519 -O private -o ed25519.v3-parallel2.ppk --new-passphrase PASSPHRASE.txt --ppk-param kdf=argon2id,memory=8192,passes=1,parallelism=2
addp ed25519.v3-parallel2.ppk ppk-v3 unsupported ed25519
puttygen ecdsa256 -O private -o ecdsa256.v3-argon2i-1pass.ppk --new-passphrase PASSPHRASE.txt --ppk-param "kdf=argon2i,$KDF"
addp ecdsa256.v3-argon2i-1pass.ppk ppk-v3 unsupported ecdsa256
# Line endings: CRLF and CR copies.
sed 's/$/\r/' ed25519.v3-argon2id.ppk > ed25519.v3-argon2id-crlf.ppk
addp ed25519.v3-argon2id-crlf.ppk ppk-v3 ok ed25519
tr '\n' '\r' < rsa.v2.ppk > rsa.v2-cr.ppk
addp rsa.v2-cr.ppk ppk-v2 ok rsa
rm -f ed25519 ecdsa256 ecdsa384 ecdsa521 rsa
cd ..

# ---------------------------------------------------------------- certificates
cd certs
printf 'file\trole\tca\tsigalg\tkey_id\tprincipals\tserial\n' > MANIFEST
addc() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" >> MANIFEST; }
ssh-keygen -q -t ed25519 -N '' -C 'ed25519 CA' -f ca_ed25519
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'ecdsa256 CA' -f ca_ecdsa256
ssh-keygen -q -t ecdsa -b 384 -N '' -C 'ecdsa384 CA' -f ca_ecdsa384
ssh-keygen -q -t ecdsa -b 521 -N '' -C 'ecdsa521 CA' -f ca_ecdsa521
ssh-keygen -q -t rsa -b 2048 -N '' -C 'rsa CA' -f ca_rsa
ssh-keygen -q -t dsa -N '' -C 'dsa CA' -f ca_dsa
ssh-keygen -q -t ed25519 -N '' -C 'user ed25519' -f user_ed25519
ssh-keygen -q -t ecdsa -b 384 -N '' -C 'user ecdsa384' -f user_ecdsa384
ssh-keygen -q -t rsa -b 2048 -N '' -C 'user rsa' -f user_rsa
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'host ecdsa256' -f host_ecdsa256
ssh-keygen -q -t ed25519 -N '' -C 'host ed25519' -f host_ed25519
ssh-keygen -q -t dsa -N '' -C 'host dsa' -f host_dsa
V=20200101000000:20400101000000

sign() { # out key ca sigalg role id principals serial [extra ssh-keygen flags...]
    out=$1 key=$2 ca=$3 alg=$4 role=$5 id=$6 principals=$7 serial=$8
    shift 8
    cp "$key.pub" "$out.pub"
    hflag=""
    [ "$role" = host ] && hflag=-h
    ssh-keygen -q -s "$ca" -t "$alg" -I "$id" -n "$principals" -V "$V" -z "$serial" $hflag "$@" "$out.pub"
    rm "$out.pub"
    fp "$out-cert.pub" "$out-cert.fp"
    ssh-keygen -L -f "$out-cert.pub" > "$out-cert.txt"
    addc "$out-cert.pub" "$role" "$ca" "$alg" "$id" "$principals" "$serial"
}
sign user_ed25519_by_ed25519 user_ed25519 ca_ed25519 ssh-ed25519 user "alice@example" alice,bob 42 \
    -O force-command=/bin/true -O source-address=10.0.0.0/8 -O no-port-forwarding
sign user_rsa_by_ecdsa256 user_rsa ca_ecdsa256 ecdsa-sha2-nistp256 user "rsa user" alice 7
sign user_ed25519_by_ecdsa384 user_ed25519 ca_ecdsa384 ecdsa-sha2-nistp384 user "p384 signed" carol 1
sign user_ecdsa384_by_ecdsa521 user_ecdsa384 ca_ecdsa521 ecdsa-sha2-nistp521 user "p521 signed" dave 18446744073709551615
sign user_ecdsa384_by_rsa512 user_ecdsa384 ca_rsa rsa-sha2-512 user "rsa-sha2-512" erin 3
sign user_ed25519_by_rsa256 user_ed25519 ca_rsa rsa-sha2-256 user "rsa-sha2-256" frank 4
sign user_rsa_by_rsa1 user_rsa ca_rsa ssh-rsa user "ssh-rsa sha1" grace 5
sign host_ecdsa256_by_ed25519 host_ecdsa256 ca_ed25519 ssh-ed25519 host "host cert" host.example.com,10.0.0.1 100
sign host_ed25519_by_rsa512 host_ed25519 ca_rsa rsa-sha2-512 host "host cert rsa" host2.example.com 101
# DSA (OpenSSH 9.2 still signs with it): a DSA CA, and a certified DSA host key.
sign user_ed25519_by_dsa user_ed25519 ca_dsa ssh-dss user "dsa CA" henry 8
sign host_dsa_by_ed25519 host_dsa ca_ed25519 ssh-ed25519 host "dsa host" dsa.example.com 102
for k in user_ed25519 user_ecdsa384 user_rsa host_ecdsa256 host_ed25519 host_dsa; do fp "$k.pub" "$k.fp"; rm -f "$k"; done
rm -f ca_ed25519 ca_ecdsa256 ca_ecdsa384 ca_ecdsa521 ca_rsa ca_dsa
cd ..
echo "fixtures written to $(pwd)/pem, ppk and certs"
