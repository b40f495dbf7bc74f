#!/usr/bin/env bash
# hostbook ssh benchmark (benchmarks/README.md, "ssh"): `hostbook ssh HOST true` against plain
# `ssh` with the same key in a file and a known_hosts file, to the same private sshd on
# 127.0.0.1, paired run by run (alternating which goes first), and the median of the
# per-pair ratios. Then where hostbook's time goes: start-up, the vault read, and one
# KnownHostsCommand run. Release build; runs inside scripts/with-keyring.
#
# Then plain `ssh bench true` through the installed configuration (`ssh-config --install`), wall and CPU,
# and the standing agent, paired with the same plain ssh.
#
# Usage: scripts/with-keyring benchmarks/ssh.sh [PAIRS]    (default 30; needs sshd, ssh-keygen)
#        HB=/path/to/hostbook to time that binary instead of building the release product
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-30}
if [ -n "${HB:-}" ]; then hb=$HB; else
    swift build -c release --product hostbook >/dev/null
    hb="$(swift build -c release --show-bin-path)/hostbook"
fi
work=$(mktemp -d)
sshd_pid=
cleanup() { "$hb" agent stop >/dev/null 2>&1 || true; [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export HOME="$work/home" HOSTBOOK_DB="$work/hb.db" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$HOME/.ssh" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"

. benchmarks/private-sshd.sh
start_private_sshd "$work" bench

"$hb" keys import "$work/id" --name bench >/dev/null
"$hb" add bench --hostname 127.0.0.1 --port "$port" --user root --key bench >/dev/null
"$hb" known-hosts approve 127.0.0.1 --port "$port" --key "$(cut -d' ' -f1,2 "$work/host_key.pub")" --yes >/dev/null
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$work/host_key.pub")" > "$work/known_hosts"

plain() { ssh -F /dev/null -p "$port" -i "$work/id" -o IdentitiesOnly=yes -o UserKnownHostsFile="$work/known_hosts" \
              -o GlobalKnownHostsFile=none -o StrictHostKeyChecking=yes -o BatchMode=yes root@127.0.0.1 true; }
viahb() { "$hb" ssh bench true </dev/null; }
ms() { local s e; s=$(date +%s%N); "$@"; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }

plain; viahb   # warm up (page cache, sshd)
ratios=(); tp=(); th=()
for i in $(seq "$pairs"); do
    if [ $((i % 2)) -eq 0 ]; then a=$(ms plain); b=$(ms viahb); else b=$(ms viahb); a=$(ms plain); fi
    tp+=("$a"); th+=("$b"); ratios+=("$(echo "scale=4; $b / $a" | bc)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "pairs: $pairs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "plain ssh median: $(median "${tp[@]}") µs"
echo "hostbook ssh median: $(median "${th[@]}") µs"
echo "median ratio (hostbook / plain): $(median "${ratios[@]}")"

# CPU time (user + system of the process and every child it waited for: for ssh, its
# KnownHostsCommand runs; for hostbook, ssh and those), paired the same way: what each costs
# whatever the load of the machine.
cpu() { ( "$@" >/dev/null 2>&1 </dev/null; times ) | awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d\n", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000000 }'; }
cp=(); ch=(); ratios=()
for i in $(seq "$pairs"); do
    if [ $((i % 2)) -eq 0 ]; then a=$(cpu plain); b=$(cpu viahb); else b=$(cpu viahb); a=$(cpu plain); fi
    cp+=("$a"); ch+=("$b")
done
echo "CPU, plain ssh median: $(median "${cp[@]}") µs; hostbook ssh median: $(median "${ch[@]}") µs (load $(cut -d' ' -f1 /proc/loadavg))"

# Where hostbook's time goes, each median of 20 runs.
quiet() { "$@" >/dev/null 2>&1 || true; }
each() { local t=(); for _ in $(seq 20); do t+=("$(ms quiet "$@")"); done; median "${t[@]}"; }
blob=$(cut -d' ' -f2 "$work/host_key.pub")
echo "start-up (hostbook --version): $(each "$hb" --version) µs"
echo "database + vault read of the key (keys export --no-passphrase): $(each "$hb" keys export bench --no-passphrase) µs"
echo "one KnownHostsCommand run, HOSTNAME: $(each "$hb" --db "$HOSTBOOK_DB" known-hosts lookup HOSTNAME "[127.0.0.1]:$port" 127.0.0.1 "$port" ssh-ed25519 "$blob" bench) µs"
echo "one KnownHostsCommand run, ORDER: $(each "$hb" --db "$HOSTBOOK_DB" known-hosts lookup ORDER 127.0.0.1 127.0.0.1 "$port" NONE NONE bench) µs"
echo "ssh -V (version check): $(each ssh -V) µs"

# Plain ssh through the installed configuration and the standing agent.
"$hb" ssh-config --install >/dev/null 2>&1
eval "$("$hb" agent start)" >/dev/null
viacfg() { ssh -F "$HOME/.ssh/config" -o BatchMode=yes bench true </dev/null; }
viacfg
ratios=(); tp=(); tc=()
for i in $(seq "$pairs"); do
    if [ $((i % 2)) -eq 0 ]; then a=$(ms plain); b=$(ms viacfg); else b=$(ms viacfg); a=$(ms plain); fi
    tp+=("$a"); tc+=("$b"); ratios+=("$(echo "scale=4; $b / $a" | bc)")
done
echo "installed config + standing agent: $pairs pairs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plain ssh median: $(median "${tp[@]}") µs"
echo "ssh via the installed config median: $(median "${tc[@]}") µs"
echo "median ratio (installed / plain): $(median "${ratios[@]}")"
cp=(); cc=()
for i in $(seq "$pairs"); do
    if [ $((i % 2)) -eq 0 ]; then a=$(cpu plain); b=$(cpu viacfg); else b=$(cpu viacfg); a=$(cpu plain); fi
    cp+=("$a"); cc+=("$b")
done
# ssh and the KnownHostsCommand runs it waits for; the standing agent's own CPU is not counted.
echo "CPU, plain ssh median: $(median "${cp[@]}") µs; via the installed config median: $(median "${cc[@]}") µs (load $(cut -d' ' -f1 /proc/loadavg))"

# Where the installed path's time goes: the processes one plain `ssh bench true` starts
# (execve) and the system calls of each, counted by strace -f (when installed).
if command -v strace >/dev/null; then
    strace -f -qq -e trace=execve -o "$work/exec.trace" ssh -F "$HOME/.ssh/config" -o BatchMode=yes bench true </dev/null >/dev/null 2>&1 || true
    echo "processes started by one plain ssh through the installed config:"
    grep -o 'execve("[^"]*", \[[^]]*' "$work/exec.trace" | sed 's/execve("\([^"]*\)", \[/  \1: /' | cut -c1-160
    strace -f -c -o "$work/count.trace" ssh -F "$HOME/.ssh/config" -o BatchMode=yes bench true </dev/null >/dev/null 2>&1 || true
    echo "system calls of that ssh and its children (strace -f -c): $(awk '/total/ {print $4}' "$work/count.trace")"
    strace -f -c -o "$work/count-lookup.trace" "$hb" --db "$HOSTBOOK_DB" known-hosts lookup HOSTNAME "[127.0.0.1]:$port" 127.0.0.1 "$port" ssh-ed25519 "$blob" bench >/dev/null 2>&1 || true
    echo "system calls of one KnownHostsCommand run: $(awk '/total/ {print $4}' "$work/count-lookup.trace")"
    strace -f -c -o "$work/count-plain.trace" bash -c "$(declare -f plain); port=$port work=$work plain" </dev/null >/dev/null 2>&1 || true
    echo "system calls of plain ssh with a key file: $(awk '/total/ {print $4}' "$work/count-plain.trace")"
fi
