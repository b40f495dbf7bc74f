#!/usr/bin/env bash
# bcrypt_pbkdf / keys import: `hostbook keys import` of an aes256-ctr Ed25519 key against
# `ssh-keygen -y -P PASS -f KEY` (OpenSSH's C bcrypt_pbkdf), side by side in one run, at
# 16, 64 and 128 bcrypt rounds. Goal: hostbook ≤ 0.6 × ssh-keygen at 64 rounds.
#
# Self-contained: builds hostbook in release mode, makes the keys with ssh-keygen in a
# temporary folder, imports each into a fresh database (--db in the temporary folder)
# inside a private, unlocked GNOME Keyring (scripts/with-keyring), and prints the medians
# and the ratio per round count. Needs hyperfine, ssh-keygen and the keyring tools.
#
#   benchmarks/bcrypt-import.sh [RUNS]      (default 15 runs per command)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-15}

# Run inside a private Secret Service (the import stores the key in the vault).
if [ -z "${HOSTBOOK_BENCH_INSIDE:-}" ]; then
    export HOSTBOOK_BENCH_INSIDE=1
    if [ -x "$root/scripts/with-keyring" ]; then
        exec "$root/scripts/with-keyring" "$0" "$@"
    fi
    exec dbus-run-session -- sh -c '
        echo bench | gnome-keyring-daemon --unlock --components=secrets --foreground >/dev/null 2>&1 &
        daemon=$!
        for _ in $(seq 50); do
            gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
                --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets 2>/dev/null | grep -q true && break
            sleep 0.1
        done
        "$0" "$@"; status=$?
        kill "$daemon"
        exit $status' "$0" "$@"
fi

cd "$root"
swift build -c release --product hostbook >&2
hostbook="$(swift build -c release --show-bin-path)/hostbook"

work=$(mktemp -d "${TMPDIR:-/tmp}/hostbook-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%s' 'benchmark passphrase' > "$work/pass"

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$(ssh -V 2>&1); hostbook $("$hostbook" --version | cut -d' ' -f2); $runs runs each, median seconds"
printf '%-7s %-12s %-12s %s\n' rounds ssh-keygen hostbook ratio
for rounds in 16 64 128; do
    key="$work/id_ed25519_$rounds"
    ssh-keygen -q -t ed25519 -Z aes256-ctr -a "$rounds" -N "$(cat "$work/pass")" -C "bench $rounds" -f "$key"
    csv="$work/result_$rounds.csv"
    # --prepare removes the database before every run: each import starts from a fresh one.
    hyperfine --style none --warmup 2 --runs "$runs" --prepare "rm -f $work/db $work/db-wal $work/db-shm" \
        --export-csv "$csv" \
        -n ssh-keygen "ssh-keygen -y -P '$(cat "$work/pass")' -f $key" \
        -n hostbook "$hostbook keys import $key --db $work/db --passphrase-file $work/pass" >/dev/null
    # CSV: command,mean,stddev,median,user,system,min,max
    awk -F, -v r="$rounds" '
        $1 == "ssh-keygen" { k = $4 }
        $1 == "hostbook" { h = $4 }
        END { printf "%-7s %-12.4f %-12.4f %.2f\n", r, k, h, h / k }' "$csv"
done
