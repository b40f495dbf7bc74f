#!/usr/bin/env bash
# Regenerates testkeys/sshkey/: one set of keys in every form OpenSSH writes or reads that
# the upstream-style tests (UpstreamSSHKeyTests, the PEM, certificate and public-file tests,
# KeysCommandTests' security key, ReliabilityTests' private scalar) need, with the answers
# ssh-keygen gives for them beside each key:
#
#   ed25519_1, ed25519_2            openssh-key-v1, no passphrase; ed25519_1_pw (aes256-ctr)
#   rsa_1, rsa_2                    PEM PKCS#1; rsa_1_pw (PEM, AES-128-CBC, as ssh-keygen -m PEM
#                                   encrypts); rsa_n / rsa_n_pw: rsa_1 as openssh-key-v1 (aes256-cbc);
#                                   rsa_1_sha1 / rsa_1_sha512: rsa_1 again, certified with
#                                   ssh-rsa and rsa-sha2-512 signatures
#   ecdsa_1 (P-256), ecdsa_2 (P-521)  PEM SEC1; ecdsa_1_pw (PEM, AES-128-CBC); ecdsa_n / ecdsa_n_pw:
#                                   ecdsa_1 as openssh-key-v1 (aes256-cbc); ecdsa_1.param.priv: its
#                                   private scalar in hex (openssl ec -text)
#   ecdsa_sk1, ecdsa_sk2, ed25519_sk1, ed25519_sk2
#                                   FIDO security-key files (sk-ecdsa-sha2-nistp256@openssh.com,
#                                   sk-ssh-ed25519@openssh.com): ssh-keygen cannot make one without
#                                   an authenticator, so this script writes the openssh-key-v1
#                                   file itself (sshkey.c's layout: the public point of a plain key
#                                   ssh-keygen made, application "ssh:", flags 0x01, a random key
#                                   handle); ssh-keygen -y and -p read them, and -p makes *_sk1_pw
#   mldsa44_ed25519_1, _1_pw, _2    a key type OpenSSH 9.2 does not know (ssh-mldsa44-ed25519@openssh.com),
#                                   in a well-formed envelope; _1_pw claims aes256-ctr + bcrypt
#   KEY-cert.pub                    certificates of ed25519_1, ecdsa_1, rsa_1 (rsa-sha2-256),
#                                   rsa_1_sha1, rsa_1_sha512, ecdsa_sk1, ed25519_sk1 (ssh-keygen -s)
#
# Beside each public key BASE.pub: BASE.fp (`ssh-keygen -l`: the SHA256 fingerprint alone) and
# BASE.fp.bb (`ssh-keygen -B`: Bubble Babble); KEY-cert.fp for each certificate. The
# passphrase is in sshkey/PASSPHRASE.
#
# Usage: testkeys/make-sshkey-set.sh   (needs ssh-keygen, openssl, od, base64; rewrites
# testkeys/sshkey/; the keys change every run, the outputs are committed)
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
out="$here/sshkey"
rm -rf "$out"
mkdir -p "$out"
cd "$out"
printf '%s' 'hostbook-sshkey-passphrase' > PASSPHRASE
pass=$(cat PASSPHRASE)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- hex helpers (the security-key and unknown-type files are assembled as hex)
hexof() { od -An -tx1 -v | tr -d ' \n'; }                  # stdin → hex
u32() { printf '%08x' "$1"; }
sshstring() { u32 $((${#1} / 2)); printf '%s' "$1"; }      # hex → SSH string (hex)
cstring() { sshstring "$(printf '%s' "$1" | hexof)"; }     # text → SSH string (hex)
pubblob() { cut -d' ' -f2 "$1" | base64 -d | hexof; }      # .pub file → key blob (hex)
random() { head -c "$1" /dev/urandom | hexof; }
unhex() { local h=$1 i; for ((i = 0; i < ${#h}; i += 2)); do printf "\\x${h:i:2}"; done; }
# An openssh-key-v1 file: cipher, kdf, kdf options, the public blob and the private section.
armour() {  # cipher kdf kdfoptions(hex) publicblob(hex) section(hex) file
    {
        printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\n'
        { printf 'openssh-key-v1\0'; unhex "$(cstring "$1")$(cstring "$2")$(sshstring "$3")$(u32 1)$(sshstring "$4")$(sshstring "$5")"; } | base64 -w 70
        printf -- '-----END OPENSSH PRIVATE KEY-----\n'
    } > "$6"
    chmod 600 "$6"
}
# The unencrypted private section: two equal check integers, the key, the comment, padding to 8.
section() {  # keyfields(hex) comment
    local s
    s="$(random 4)"
    s="$s$s$1$(cstring "$2")"
    local n=1
    while (( (${#s} / 2) % 8 != 0 )); do s="$s$(printf '%02x' $n)"; n=$((n + 1)); done
    printf '%s' "$s"
}

answers() {  # BASE: BASE.fp, BASE.fp.bb from BASE.pub
    ssh-keygen -l -f "$1.pub" | cut -d' ' -f2 > "$1.fp"
    ssh-keygen -B -f "$1.pub" | cut -d' ' -f2 > "$1.fp.bb"
}

# ---- openssh-key-v1 Ed25519
ssh-keygen -q -t ed25519 -N '' -C 'hostbook sshkey ed25519 #1' -f ed25519_1
ssh-keygen -q -t ed25519 -N '' -C 'hostbook sshkey ed25519 #2' -f ed25519_2
cp ed25519_1 ed25519_1_pw
ssh-keygen -q -p -P '' -N "$pass" -Z aes256-ctr -a 4 -f ed25519_1_pw > /dev/null
rm -f ed25519_1_pw.pub
answers ed25519_1; answers ed25519_2

# ---- PEM RSA and ECDSA, and the same keys as openssh-key-v1 (*_n)
ssh-keygen -q -t rsa -b 2048 -m PEM -N '' -C '' -f rsa_1
ssh-keygen -q -t rsa -b 2048 -m PEM -N '' -C '' -f rsa_2
ssh-keygen -q -t ecdsa -b 256 -m PEM -N '' -C '' -f ecdsa_1
ssh-keygen -q -t ecdsa -b 521 -m PEM -N '' -C '' -f ecdsa_2
for k in rsa_1 ecdsa_1; do
    cp "$k" "${k}_pw"
    ssh-keygen -q -p -P '' -N "$pass" -m PEM -f "${k}_pw" > /dev/null
    n=${k%_1}_n
    cp "$k" "$n"
    ssh-keygen -q -p -P '' -N '' -f "$n" > /dev/null                    # rewritten as openssh-key-v1
    cp "$n" "${n}_pw"
    ssh-keygen -q -p -P '' -N "$pass" -Z aes256-cbc -a 4 -f "${n}_pw" > /dev/null
    rm -f "${k}_pw.pub" "$n.pub" "${n}_pw.pub"
done
for k in rsa_1 rsa_2 ecdsa_1 ecdsa_2; do answers "$k"; done
openssl ec -in ecdsa_1 -noout -text 2> /dev/null |
    awk '/^priv:/ { on = 1; next } /^pub:/ { on = 0 } on' | tr -d ' :\n' > ecdsa_1.param.priv
printf '\n' >> ecdsa_1.param.priv
for k in rsa_1_sha1 rsa_1_sha512; do cp rsa_1 "$k"; cp rsa_1.pub "$k.pub"; done

# ---- security keys, written by hand from a plain key's public point
for i in 1 2; do
    ssh-keygen -q -t ed25519 -N '' -C '' -f "$work/ed$i"
    pk=$(pubblob "$work/ed$i.pub"); pk=${pk:38:64}                       # after string "ssh-ed25519"
    public="$(cstring sk-ssh-ed25519@openssh.com)$(sshstring "$pk")$(cstring ssh:)"
    fields="$(cstring sk-ssh-ed25519@openssh.com)$(sshstring "$pk")$(cstring ssh:)01$(sshstring "$(random 64)")$(sshstring '')"
    armour none none '' "$public" "$(section "$fields" "")" "ed25519_sk$i"
    ssh-keygen -y -f "ed25519_sk$i" > "ed25519_sk$i.pub"

    ssh-keygen -q -t ecdsa -b 256 -N '' -C '' -f "$work/ec$i"
    q=$(pubblob "$work/ec$i.pub"); q=${q:$(( (4 + 19 + 4 + 8 + 4) * 2 )):130}   # after the type, the curve and Q's length
    public="$(cstring sk-ecdsa-sha2-nistp256@openssh.com)$(cstring nistp256)$(sshstring "$q")$(cstring ssh:)"
    fields="$(cstring sk-ecdsa-sha2-nistp256@openssh.com)$(cstring nistp256)$(sshstring "$q")$(cstring ssh:)01$(sshstring "$(random 64)")$(sshstring '')"
    armour none none '' "$public" "$(section "$fields" "")" "ecdsa_sk$i"
    ssh-keygen -y -f "ecdsa_sk$i" > "ecdsa_sk$i.pub"
    answers "ed25519_sk$i"; answers "ecdsa_sk$i"
done
for k in ed25519_sk1 ecdsa_sk1; do
    cp "$k" "${k}_pw"
    ssh-keygen -q -p -P '' -N "$pass" -Z aes256-ctr -a 4 -f "${k}_pw" > /dev/null
    rm -f "${k}_pw.pub"
done

# ---- a key type OpenSSH does not know, in a well-formed envelope
for i in 1 2; do
    public="$(cstring ssh-mldsa44-ed25519@openssh.com)$(sshstring "$(random 1344)")"
    armour none none '' "$public" "$(section "$(cstring ssh-mldsa44-ed25519@openssh.com)$(sshstring "$(random 1344)")" "")" "mldsa44_ed25519_$i"
    printf '%s %s\n' ssh-mldsa44-ed25519@openssh.com "$(unhex "$public" | base64 -w 0)" > "mldsa44_ed25519_$i.pub"
done
public="$(cstring ssh-mldsa44-ed25519@openssh.com)$(sshstring "$(random 1344)")"
armour aes256-ctr bcrypt "$(sshstring "$(random 16)")$(u32 4)" "$public" "$(random 2736)" mldsa44_ed25519_1_pw

# ---- certificates (ssh-keygen -s; the CA keys are thrown away)
ssh-keygen -q -t ed25519 -N '' -C 'hostbook sshkey CA' -f "$work/ca_ed25519"
ssh-keygen -q -t rsa -b 2048 -N '' -C 'hostbook sshkey CA' -f "$work/ca_rsa"
certify() {  # ca key sigalg(or -) id
    local t=()
    [ "$3" = - ] || t=(-t "$3")
    ssh-keygen -q -s "$work/$1" "${t[@]}" -I "$4" -n hostbook,test -V 20260101:20360101 -z 7 "$2.pub"
    ssh-keygen -l -f "$2-cert.pub" | cut -d' ' -f2 > "$2-cert.fp"
}
certify ca_rsa ed25519_1 rsa-sha2-512 'ed25519 #1'
certify ca_ed25519 ecdsa_1 - 'ecdsa #1'
certify ca_ed25519 rsa_1 - 'rsa #1'
certify ca_rsa rsa_1_sha1 ssh-rsa 'rsa #1 by ssh-rsa'
certify ca_rsa rsa_1_sha512 rsa-sha2-512 'rsa #1 by rsa-sha2-512'
rm rsa_1_sha1-cert.fp rsa_1_sha512-cert.fp                              # the same key as rsa_1
certify ca_ed25519 ecdsa_sk1 - 'ecdsa-sk #1'
certify ca_rsa ed25519_sk1 rsa-sha2-256 'ed25519-sk #1'

chmod 644 "$out"/*
echo "wrote $(ls | wc -l) files to $out"
