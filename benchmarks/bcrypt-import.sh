#!/usr/bin/env bash
# bcrypt_pbkdf / keys import: `hostbook keys import` of an aes256-ctr Ed25519 key against
# `ssh-keygen -y -P PASS -f KEY` (OpenSSH's C bcrypt_pbkdf), side by side in one run, at
# 16, 64 and 128 bcrypt rounds. Goal: hostbook ≤ 0.6 × ssh-keygen at 64 rounds.
#
# Self-contained: builds hostbook in release mode, makes the keys with ssh-keygen in a
# temporary folder, imports each into a fresh database (--db in the temporary folder)
# inside a private, unlocked GNOME Keyring (scripts/with-keyring), and prints the medians
# and the ratio per round count. Needs ssh-keygen, /usr/bin/time and the keyring tools.
#
#   benchmarks/bcrypt-import.sh [RUNS]      (default 15 runs per command)
#
# The runs of the two commands are interleaved (not hyperfine's one-command-then-the-other)
# because the machine is shared: slow phases then hit both commands alike.
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

# One measurement: wall-clock seconds (from date +%s%N) and CPU seconds (user + system,
# from /usr/bin/time) of a command, appended to $1.wall and $1.cpu.
measure() {
    local out=$1; shift
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f '%U %S' -o "$out.tmp" "$@" >/dev/null 2>"$out.err" || { cat "$out.err" >&2; exit 1; }
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 ))" >> "$out.wall"
    awk '{ printf "%d\n", ($1 + $2) * 1000000 }' "$out.tmp" >> "$out.cpu"
}
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.4f", m / 1000000 }'; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$(ssh -V 2>&1); hostbook $("$hostbook" --version | cut -d' ' -f2)"
echo "$runs interleaved runs per command (+2 warm-up); medians in seconds; import into a fresh --db each run"
printf '%-7s %-11s %-11s %-11s %-11s %s\n' rounds keygen-wall hb-wall keygen-cpu hb-cpu "ratio (wall)"
# "none": an unencrypted key, i.e. the fixed cost of each command without any KDF.
for rounds in none 16 64 128; do
    key="$work/id_ed25519_$rounds"
    if [ "$rounds" = none ]; then
        ssh-keygen -q -t ed25519 -N '' -C "bench none" -f "$key"
    else
        ssh-keygen -q -t ed25519 -Z aes256-ctr -a "$rounds" -N "$(cat "$work/pass")" -C "bench $rounds" -f "$key"
    fi
    pass=$(cat "$work/pass")
    rm -f "$work"/r"$rounds"_*
    for i in $(seq -1 "$runs"); do
        rm -f "$work/db" "$work/db-wal" "$work/db-shm"
        # Alternate which command goes first, so drifting load on a shared machine hits both alike.
        if [ $((i % 2)) -eq 0 ]; then order="k h"; else order="h k"; fi
        for which in $order; do
            target="$work/r${rounds}_$which"
            [ "$i" -le 0 ] && target="$work/warmup"
            if [ "$which" = k ]; then
                measure "$target" ssh-keygen -y -P "$pass" -f "$key"
            else
                measure "$target" "$hostbook" keys import "$key" --db "$work/db" --passphrase-file "$work/pass"
            fi
        done
    done
    kw=$(median "$work/r${rounds}_k.wall"); hw=$(median "$work/r${rounds}_h.wall")
    kc=$(median "$work/r${rounds}_k.cpu"); hc=$(median "$work/r${rounds}_h.cpu")
    printf '%-7s %-11s %-11s %-11s %-11s %s\n' "$rounds" "$kw" "$hw" "$kc" "$hc" "$(awk -v a="$hw" -v b="$kw" 'BEGIN { printf "%.2f", a / b }')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
