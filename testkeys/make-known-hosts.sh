#!/usr/bin/env bash
# Regenerates testkeys/hostkeys/: host keys made by ssh-keygen and a known_hosts file over
# them with every kind of line a known_hosts reader meets, for KnownHostsLineTests (parsing,
# and agreement with `ssh-keygen -F`) and KnownHostsStoreTests (import, then decisions).
#
# Keys: ed25519_N, ecdsa_N (N = 1 P-384, 2 P-521, 3..6 P-256) and rsa_N (2048 bits) for
# N = 1..6, each KEY.pub with KEY.fp (`ssh-keygen -l`, the SHA256 fingerprint alone).
#
# known_hosts, line by line (the tests count on these numbers):
#    1, 6, 11, 16, 32, 36        comments
#    5, 10, 15, 20, 30, 31, 35   empty lines
#    2-4     atlas.example.net, plain: ecdsa_1, ed25519_1, rsa_1
#    7-9     boreas.example.net,198.51.100.7,2001:db8:5::7 (three names a line): *_2
#    12-14   the pattern list *.example.net,198.51.100.*,2001:db8:*,!gate.example.net: *_3
#    17-19   atlas.example.net hashed (ssh-keygen -H), one line a key: *_5
#    21-29   boreas.example.net, 198.51.100.7, 2001:db8:5::7 hashed, three lines a key: ecdsa_6, ed25519_6, rsa_6
#    33      @revoked atlas.example.net: ed25519_4
#    34      @cert-authority boreas.example.net: ecdsa_4
#    37-42   broken: an unknown marker with no host, a host alone, no key blob, a truncated
#            blob, an unknown key type, a blob whose inner type is not the line's
#
# Usage: testkeys/make-known-hosts.sh   (needs ssh-keygen; rewrites testkeys/hostkeys/; the
# keys change every run, the outputs are committed)
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
out="$here/hostkeys"
rm -rf "$out"
mkdir -p "$out"
cd "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for n in 1 2 3 4 5 6; do
    case $n in 1) bits=384 ;; 2) bits=521 ;; *) bits=256 ;; esac
    ssh-keygen -q -t ecdsa -b "$bits" -N '' -C "hostbook host ecdsa #$n" -f "$work/ecdsa_$n"
    ssh-keygen -q -t ed25519 -N '' -C "hostbook host ed25519 #$n" -f "$work/ed25519_$n"
    ssh-keygen -q -t rsa -b 2048 -N '' -C "hostbook host rsa #$n" -f "$work/rsa_$n"
    for t in ecdsa ed25519 rsa; do
        cp "$work/${t}_$n.pub" .
        ssh-keygen -l -f "${t}_$n.pub" | cut -d' ' -f2 > "${t}_$n.fp"
    done
done

key() { cut -d' ' -f1,2 "$1.pub"; }          # "type base64", no comment
hashed() {  # names keyfile...: the lines ssh-keygen -H makes, in order
    local names=$1; shift
    : > "$work/plain"
    for k in "$@"; do printf '%s %s\n' "$names" "$(key "$k")" >> "$work/plain"; done
    ssh-keygen -q -H -f "$work/plain" > /dev/null 2>&1
    cat "$work/plain"
}

boreas='boreas.example.net,198.51.100.7,2001:db8:5::7'
{
    echo '# plain names, one a line'
    for k in ecdsa_1 ed25519_1 rsa_1; do echo "atlas.example.net $(key $k)"; done
    echo
    echo '# one host by three names'
    for k in ecdsa_2 ed25519_2 rsa_2; do echo "$boreas $(key $k)"; done
    echo
    echo '# a pattern list with wildcards and a negation'
    for k in ecdsa_3 ed25519_3 rsa_3; do echo "*.example.net,198.51.100.*,2001:db8:*,!gate.example.net $(key $k)"; done
    echo
    echo '# hashed names'
    hashed atlas.example.net ecdsa_5 ed25519_5 rsa_5
    echo
    for k in ecdsa_6 ed25519_6 rsa_6; do hashed "$boreas" "$k"; done
    echo
    echo
    echo '# markers'
    echo "@revoked atlas.example.net $(key ed25519_4)"
    echo "@cert-authority boreas.example.net $(key ecdsa_4)"
    echo
    echo '# broken lines'
    echo "@what $(key rsa_1)"
    echo 'atlas.example.net    '
    echo 'boreas.example.net ssh-ed25519 '
    echo "atlas.example.net ssh-ed25519 $(cut -d' ' -f2 ed25519_1.pub | cut -c1-16)"
    echo "atlas.example.net ssh-unknown $(printf '\0\0\0\013ssh-unknown\0\0\0\040%032d' 0 | base64 -w 0)"
    echo "boreas.example.net ssh-rsa $(printf '\0\0\0\013ssh-unknown\0\0\0\040%032d' 0 | base64 -w 0)"
} > known_hosts
[ "$(wc -l < known_hosts)" = 42 ] || { echo "known_hosts has $(wc -l < known_hosts) lines, not 42" >&2; exit 1; }
chmod 644 "$out"/*
echo "wrote $(ls | wc -l) files to $out"
