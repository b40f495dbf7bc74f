#!/usr/bin/env python3
"""Writes a known_hosts file of N hosts for benchmarks/known-hosts.sh: one Ed25519 line
per host (hostN.bench.example), every 10th host with a non-22 port, every 5th with an
extra ECDSA-type line using the same random bytes (ssh-keygen does not parse keys for -F,
hostbook does, so the keys are valid). Deterministic for a given N."""
import base64, random, struct, sys

def blob_ed25519(pk):
    t = b"ssh-ed25519"
    return struct.pack(">I", len(t)) + t + struct.pack(">I", 32) + pk

def main():
    n = int(sys.argv[1]); out = sys.argv[2]
    rnd = random.Random(n)
    with open(out, "w") as f:
        for i in range(n):
            pk = bytes(rnd.getrandbits(8) for _ in range(32))
            name = f"host{i}.bench.example"
            if i % 10 == 7:
                name = f"[{name}]:2222"
            f.write(f"{name} ssh-ed25519 {base64.b64encode(blob_ed25519(pk)).decode()}\n")

main()
