#!/usr/bin/env python3
"""Writes a known_hosts file of N hosts for benchmarks/known-hosts.sh: one Ed25519 line
per host, `hostI.bench.example`, every 10th one as `[hostI.bench.example]:2222`. The keys
are random but well-formed (hostbook parses every key on import). Deterministic for a
given N. With --addresses each host also has an IPv4 address on its line
(`hostI.bench.example,10.x.y.z`, as ssh writes with CheckHostIP), so that `ssh-keygen -H`
makes two hashed lines per host. Usage: known-hosts-gen.py N OUTPUT [--addresses]"""
import base64, random, struct, sys

def blob_ed25519(pk):
    t = b"ssh-ed25519"
    return struct.pack(">I", len(t)) + t + struct.pack(">I", 32) + pk

def main():
    n = int(sys.argv[1]); out = sys.argv[2]
    addresses = sys.argv[3:] == ["--addresses"]
    rnd = random.Random(n)
    with open(out, "w") as f:
        for i in range(n):
            pk = bytes(rnd.getrandbits(8) for _ in range(32))
            name = f"host{i}.bench.example"
            address = f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}"
            if i % 10 == 7:
                name = f"[{name}]:2222"
                address = f"[{address}]:2222"
            if addresses:
                name += "," + address
            f.write(f"{name} ssh-ed25519 {base64.b64encode(blob_ed25519(pk)).decode()}\n")

main()
