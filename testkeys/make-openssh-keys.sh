#!/bin/sh
# Regenerates testkeys/openssh/: openssh-key-v1 fixtures made by the real ssh-keygen, with
# the output ssh-keygen itself prints for them (the oracle the tests compare against).
#
# For every key type (ed25519, ecdsa 256/384/521, rsa 2048/3072) one key is generated, then
# copied and re-encrypted with `ssh-keygen -p -Z CIPHER` for every cipher OpenSSH allows in
# key files (ssh-formats.md §1.5), plus the unencrypted form and the odd cipher `none` +
# kdf bcrypt. Rounds are small (-a 2) to keep the tests fast; a few keys use 16 rounds.
# RSA 1024 and 4096 (unencrypted) are there for the randomart header width; DSA 1024
# (unencrypted and aes256-ctr) for the refusal of DSA keys.
#
# Beside each KEY: KEY.pub, KEY.l (`ssh-keygen -l`), KEY.lv (`ssh-keygen -lv`: the randomart),
# KEY.l-md5 and KEY.lv-md5 (the same with -E md5). The passphrase is in openssh/PASSPHRASE.
#
# Usage: testkeys/make-openssh-keys.sh   (needs ssh-keygen; rewrites testkeys/openssh/ and rounds/)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out="$here/openssh"
rm -rf "$out"
mkdir -p "$out"
printf '%s' 'hostbook-test-passphrase' > "$out/PASSPHRASE"
pass=$(cat "$out/PASSPHRASE")

ciphers="3des-cbc aes128-cbc aes192-cbc aes256-cbc aes128-ctr aes192-ctr aes256-ctr
aes128-gcm@openssh.com aes256-gcm@openssh.com chacha20-poly1305@openssh.com"

expect() {  # writes the ssh-keygen outputs beside key $1
    ssh-keygen -l -f "$1.pub" > "$1.l"
    ssh-keygen -lv -f "$1.pub" > "$1.lv"
    ssh-keygen -l -E md5 -f "$1.pub" > "$1.l-md5"
    ssh-keygen -lv -E md5 -f "$1.pub" > "$1.lv-md5"
}

for spec in ed25519:ed25519: ecdsa256:ecdsa:256 ecdsa384:ecdsa:384 ecdsa521:ecdsa:521 rsa2048:rsa:2048 rsa3072:rsa:3072; do
    name=${spec%%:*}
    rest=${spec#*:}
    type=${rest%%:*}
    bits=${rest#*:}
    base="$out/${name}_none"
    if [ -n "$bits" ]; then
        ssh-keygen -q -t "$type" -b "$bits" -N '' -C "hostbook test $name" -f "$base"
    else
        ssh-keygen -q -t "$type" -N '' -C "hostbook test $name" -f "$base"
    fi
    expect "$base"
    for cipher in $ciphers; do
        key="$out/${name}_${cipher%@openssh.com}"
        cp "$base" "$key"
        cp "$base.pub" "$key.pub"
        ssh-keygen -q -p -P '' -N "$pass" -Z "$cipher" -a 2 -f "$key" > /dev/null
        expect "$key"
    done
    # cipher none with kdf bcrypt: any non-empty passphrase opens it.
    key="$out/${name}_none-bcrypt"
    cp "$base" "$key"; cp "$base.pub" "$key.pub"
    ssh-keygen -q -p -P '' -N "$pass" -Z none -a 2 -f "$key" > /dev/null
    expect "$key"
    # OpenSSH 9.2's default rounds (16) with its default cipher.
    key="$out/${name}_aes256-ctr-16rounds"
    cp "$base" "$key"; cp "$base.pub" "$key.pub"
    ssh-keygen -q -p -P '' -N "$pass" -Z aes256-ctr -a 16 -f "$key" > /dev/null
    expect "$key"
done

for bits in 1024 4096; do
    key="$out/rsa${bits}_none"
    ssh-keygen -q -t rsa -b "$bits" -N '' -C "hostbook test rsa$bits" -f "$key"
    expect "$key"
done
# DSA (ssh-keygen 9.2 still makes it; hostbook refuses it, before asking for a passphrase).
for variant in none aes256-ctr; do
    key="$out/dsa1024_$variant"
    if [ "$variant" = none ]; then
        ssh-keygen -q -t dsa -N '' -C "hostbook test dsa" -f "$key"
    else
        ssh-keygen -q -t dsa -N "$pass" -Z aes256-ctr -a 2 -C "hostbook test dsa" -f "$key"
    fi
    expect "$key"
done
# In rounds/ (a folder of its own, so the tests that go through every key in openssh/ do not
# spend its seconds): more bcrypt rounds than `keys import` decrypts without a word (1000),
# for its "will take a while" notice; made here once, not by ssh-keygen at each test run.
rounds="$here/rounds"
rm -rf "$rounds"
mkdir -p "$rounds"
key="$rounds/ed25519_aes128-ctr-1001rounds"
cp "$out/ed25519_none" "$key"; cp "$out/ed25519_none.pub" "$key.pub"
ssh-keygen -q -p -P '' -N "$pass" -Z aes128-ctr -a 1001 -f "$key" > /dev/null
chmod 644 "$out"/* "$rounds"/*
echo "wrote $(ls "$out" | grep -c '\.pub$') keys to $out"
