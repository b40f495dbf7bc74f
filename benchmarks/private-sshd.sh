# Sourced by the benchmarks that log in (ssh.sh, opens.sh): a private sshd on 127.0.0.1 and
# a free port, PidFile none, started in the background and waited for until it accepts.
# `start_private_sshd WORK COMMENT` makes WORK/host_key, a user key WORK/id (comment COMMENT)
# that WORK/authorized_keys accepts, and WORK/sshd_config; it sets `port` and `sshd_pid`
# (the caller's cleanup stops sshd by that PID). sshd's log: WORK/sshd.log.
start_private_sshd() {
    local work=$1 comment=$2
    ssh-keygen -q -t ed25519 -N "" -f "$work/host_key"
    ssh-keygen -q -t ed25519 -N "" -C "$comment" -f "$work/id"
    cp "$work/id.pub" "$work/authorized_keys"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    cat > "$work/sshd_config" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $work/host_key
PidFile none
AuthorizedKeysFile $work/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
CFG
    mkdir -p /run/sshd
    /usr/sbin/sshd -D -e -f "$work/sshd_config" 2>"$work/sshd.log" </dev/null >/dev/null &
    sshd_pid=$!
    for _ in $(seq 100); do (echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.05; done
}
