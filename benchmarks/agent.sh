#!/usr/bin/env bash
# hostbook agent benchmark (benchmarks/README.md, "agent"): `ssh-add -T KEY.pub` (a signature
# made by the agent and verified by ssh-add) through hostbook's standing agent against
# OpenSSH's ssh-agent holding the same key, paired run by run (alternating which goes
# first), and the median of the per-pair ratios. Runs inside scripts/with-keyring.
#
# Usage: scripts/with-keyring benchmarks/agent.sh [PAIRS]   (default 200; HB=path to use a given build)
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-200}
if [ -z "${HB:-}" ]; then
    swift build -c release --product hostbook >/dev/null
    HB="$(swift build -c release --show-bin-path)/hostbook"
fi
work=$(mktemp -d)
ossh_pid=
cleanup() {
    [ -n "$ossh_pid" ] && kill "$ossh_pid" 2>/dev/null
    "$HB" agent stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" HOSTBOOK_DB="$work/hb.db" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
ssh-keygen -q -t ed25519 -N "" -C bench -f "$work/id"
"$HB" keys import "$work/id" --name bench >/dev/null
eval "$("$HB" agent start)" >/dev/null
hb_sock=$SSH_AUTH_SOCK
eval "$(ssh-agent -s -a "$work/ossh.sock")" >/dev/null
ossh_pid=$SSH_AGENT_PID
SSH_AUTH_SOCK="$work/ossh.sock" ssh-add -q "$work/id"
# The first signature reads the key from the vault: warm both up.
SSH_AUTH_SOCK=$hb_sock ssh-add -T "$work/id.pub"
SSH_AUTH_SOCK="$work/ossh.sock" ssh-add -T "$work/id.pub"

one() { local s e; s=$(date +%s%N); SSH_AUTH_SOCK=$1 ssh-add -T "$work/id.pub"; e=$(date +%s%N); echo $(( e - s )); }
ratios=(); hbs=(); osss=()
for i in $(seq "$pairs"); do
    if (( i % 2 )); then h=$(one "$hb_sock"); o=$(one "$work/ossh.sock"); else o=$(one "$work/ossh.sock"); h=$(one "$hb_sock"); fi
    hbs+=("$h"); osss+=("$o"); ratios+=("$(awk -v h="$h" -v o="$o" 'BEGIN { printf "%.4f", h / o }')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "pairs: $pairs"
echo "hostbook agent: median $(awk -v n="$(median "${hbs[@]}")" 'BEGIN { printf "%.2f", n / 1e6 }') ms"
echo "ssh-agent:      median $(awk -v n="$(median "${osss[@]}")" 'BEGIN { printf "%.2f", n / 1e6 }') ms"
echo "median ratio (hostbook / ssh-agent): $(median "${ratios[@]}")   goal <= 1.20"
