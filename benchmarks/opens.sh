#!/usr/bin/env bash
# Database opens and host-key work of one connection (docs/architecture.md, "Counts that
# stay at their value"; issue 29): a private sshd on 127.0.0.1, a saved host with a key and
# its trusted host key, then, counted with strace (openat of the database file itself, not
# its -wal/-shm; each SQLite open is two: DatabaseTrust's readability check and SQLite's):
#   1. every process of one `hostbook ssh HOST true` (hostbook, ssh, the KnownHostsCommand);
#   2. of those, the ones made after ssh started: the session agent's list and sign;
#   3. the standing agent (`hostbook agent start`, attached with strace -p) during one plain
#      ssh login through it (list and sign).
#
# Usage: scripts/with-keyring benchmarks/opens.sh     (needs sshd, ssh-keygen, strace)
#        HB=/path/to/hostbook to count that binary instead of the debug build
set -euo pipefail
cd "$(dirname "$0")/.."
hb=${HB:-$(swift build --show-bin-path)/hostbook}
work=$(mktemp -d)
sshd_pid=
tracer=
cleanup() {
    [ -n "$tracer" ] && kill "$tracer" 2>/dev/null && wait "$tracer" 2>/dev/null
    "$hb" agent stop >/dev/null 2>&1 || true
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" HOSTBOOK_DB="$work/hb.db" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$HOME/.ssh" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"

. benchmarks/private-sshd.sh
start_private_sshd "$work" count

"$hb" keys import "$work/id" --name count >/dev/null
"$hb" add box --hostname 127.0.0.1 --port "$port" --user root --key count >/dev/null
"$hb" known-hosts approve 127.0.0.1 --port "$port" --key "$(cut -d' ' -f1,2 "$work/host_key.pub")" --yes >/dev/null
"$hb" ssh box true </dev/null   # warm up; fails the script if the login does not work

# 1 and 2: one `hostbook ssh box true`, every process.
strace -f -qq -e trace=openat,execve -o "$work/ssh.trace" "$hb" ssh box true </dev/null
db="\"$HOSTBOOK_DB\""
echo "database opens, all processes of one 'hostbook ssh HOST true': $(grep -c "openat(.*$db" "$work/ssh.trace")"
echo "  of them after ssh started (the session agent's list and sign): $(awk -v db="$db" '/execve\("[^"]*\/ssh", \[[^]]*"-F"/ {s=1} s && /openat\(/ && index($0, db) {n++} END {print n+0}' "$work/ssh.trace")"
echo "  processes: $(grep -c 'execve(' "$work/ssh.trace") ($(grep -o 'execve("[^"]*"' "$work/ssh.trace" | sed 's/execve(//' | tr '\n' ' '))"

# 3: the standing agent, attached once it is ready, during one ssh login through it.
eval "$("$hb" agent start)" >/dev/null
strace -f -qq -e trace=openat -p "$SSH_AGENT_PID" -o "$work/agent.trace" &
tracer=$!
for _ in $(seq 100); do [ -s "$work/agent.trace" ] || grep -q "TracerPid:[[:space:]]*[1-9]" "/proc/$SSH_AGENT_PID/status" && break; sleep 0.05; done
ssh -F /dev/null -p "$port" -o IdentitiesOnly=no -o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=none \
    -o StrictHostKeyChecking=no -o BatchMode=yes -o LogLevel=ERROR root@127.0.0.1 true </dev/null
kill "$tracer"; wait "$tracer" 2>/dev/null || true; tracer=
echo "database opens of the standing agent during one login (list and sign): $(grep -c "openat(.*$db" "$work/agent.trace")"
