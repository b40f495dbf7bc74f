#!/usr/bin/env python3
"""Writes a `tailscale status --json` document with N peers, seeded so runs repeat.

Same shape as ../shared/testdata/tailscale/status-small.json (json.MarshalIndent style:
2-space indent, Peer keyed by node key). Every second peer runs Tailscale SSH and
advertises three host keys (rsa 2048, ecdsa P-256, ed25519), in Tailscale's order; every
fifth is tagged; a third are offline. Key material is random bytes in valid SSH wire
layout (the importer checks structure, not primality), except the ECDSA keys: a random
point of P-256, since a point off the curve is no key to ssh or to hostbook.

With --wide, two devices instead (issue 22, the shape of QuadraticInputTests): one with
N Ed25519 host keys, each listed twice, under its MagicDNS name; one with 1.5 N Tailscale
addresses, each listed twice, and one key. Both seeded, so SEED 1 and SEED 2 give the
same names with other keys (a re-import that rotates every key).

usage: tailscale-generate.py N SEED > status.json
       tailscale-generate.py --wide N SEED > status.json
"""
import base64, json, random, struct, sys


def wire(*parts):
    out = b""
    for p in parts:
        out += struct.pack(">I", len(p)) + p
    return out


def mpint(b):
    return b"\x00" + b if b[0] & 0x80 else b


# P-256 (SEC 2): y^2 = x^3 - 3x + b over p; p = 3 (mod 4), so a square root is a power.
P256_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
P256_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B


def p256_point(rng):
    while True:
        x = rng.getrandbits(256) % P256_P
        rhs = (x * x * x - 3 * x + P256_B) % P256_P
        y = pow(rhs, (P256_P + 1) // 4, P256_P)
        if y * y % P256_P == rhs and x.bit_length() > 128 and y.bit_length() > 128:
            return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def keys(rng):
    n = bytearray(rng.getrandbits(8) for _ in range(256))
    n[0] |= 0x80
    n[-1] |= 1
    rsa = wire(b"ssh-rsa", b"\x01\x00\x01", mpint(bytes(n)))
    point = p256_point(rng)
    ecdsa = wire(b"ecdsa-sha2-nistp256", b"nistp256", point)
    ed = wire(b"ssh-ed25519", bytes(rng.getrandbits(8) for _ in range(32)))
    return [t + " " + base64.b64encode(b).decode() for t, b in
            (("ssh-rsa", rsa), ("ecdsa-sha2-nistp256", ecdsa), ("ssh-ed25519", ed))]


def peer(i, rng):
    key = "nodekey:" + "%064x" % rng.getrandbits(256)
    online = i % 3 != 0
    ip4 = "100.%d.%d.%d" % (64 + (i >> 16) % 64, (i >> 8) & 255, i & 255)
    p = {
        "ID": "n%010dCNTRL" % i,
        "NodeID": 5000000000000 + i,
        "PublicKey": key,
        "HostName": "host-%d" % i,
        "DNSName": "host-%d.tail4f21c8.ts.net." % i,
        "OS": "linux" if i % 4 else "macOS",
        "UserID": 20001,
        "TailscaleIPs": [ip4, "fd7a:115c:a1e0::%x:%x" % (i >> 16, i & 0xffff)],
        "Addrs": None, "CurAddr": "", "Relay": "fra", "PeerRelay": "",
        "RxBytes": 0, "TxBytes": 0,
        "Created": "2025-03-14T09:26:53.184522791Z",
        "LastWrite": "0001-01-01T00:00:00Z",
        "LastSeen": "0001-01-01T00:00:00Z" if online else "2026-11-27T18:42:10Z",
        "LastHandshake": "0001-01-01T00:00:00Z",
        "Online": online, "ExitNode": False, "ExitNodeOption": False, "Active": False,
        "PeerAPIURL": ["http://%s:39817" % ip4],
        "TaildropTarget": 1, "NoFileSharingReason": "",
        "InNetworkMap": True, "InMagicSock": False, "InEngine": False,
        "KeyExpiry": "2027-09-10T09:26:53Z",
    }
    if i % 5 == 0:
        p["Tags"] = ["tag:server", "tag:group-%d" % (i % 7)]
    if i % 2 == 0:
        p["sshHostKeys"] = keys(rng)
    return key, p


def ed25519(rng):
    return "ssh-ed25519 " + base64.b64encode(wire(b"ssh-ed25519", bytes(rng.getrandbits(8) for _ in range(32)))).decode()


def wide(n, rng):
    def device(i, name, ips, keys):
        return ("nodekey:%064x" % i, {
            "ID": "nWIDE%dCNTRL" % i, "NodeID": 6000000000000 + i, "PublicKey": "nodekey:%064x" % i,
            "HostName": name, "DNSName": name + ".tail4f21c8.ts.net." if not ips else "",
            "OS": "linux", "UserID": 20001, "TailscaleIPs": ips, "Online": True,
            "sshHostKeys": keys,
        })
    keys = [ed25519(rng) for _ in range(n)]
    ips = ["100.%d.%d.%d" % (64 + (i >> 16), (i >> 8) & 255, i & 255) for i in range(n * 3 // 2)]
    return dict([device(1, "keys", [], keys + keys), device(2, "wide", ips + ips, [ed25519(rng)])])


def main():
    args = sys.argv[1:]
    n, seed = int(args[-2]), int(args[-1])
    rng = random.Random(seed)
    peers = wide(n, rng) if args[0] == "--wide" else dict(peer(i, rng) for i in range(n))
    doc = {
        "Version": "1.102.3-t4be2a9c71-g8d1f03e6a", "TUN": True, "BackendState": "Running",
        "HaveNodeKey": True, "AuthURL": "", "TailscaleIPs": ["100.71.20.5"],
        "Self": {"ID": "nSELFCNTRL", "PublicKey": "nodekey:" + "0" * 64, "HostName": "bench",
                 "DNSName": "bench.tail4f21c8.ts.net.", "OS": "linux", "UserID": 20001,
                 "TailscaleIPs": ["100.71.20.5"], "Online": True},
        "Health": [], "MagicDNSSuffix": "tail4f21c8.ts.net",
        "CurrentTailnet": {"Name": "example.com", "MagicDNSSuffix": "tail4f21c8.ts.net", "MagicDNSEnabled": True},
        "Peer": dict(sorted(peers.items())),
        "User": {"20001": {"ID": 20001, "LoginName": "alice@example.com", "DisplayName": "Alice"}},
    }
    json.dump(doc, sys.stdout, indent=2)


main()
