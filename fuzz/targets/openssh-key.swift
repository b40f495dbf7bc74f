// openssh-key-v1 private keys (OpenSSHPrivateKey), without and with a passphrase. The
// passphrase is tried only when the parser itself reads few bcrypt rounds from the
// envelope: it accepts any count OpenSSH does (up to 2³²−1), which would trip libFuzzer's
// per-input timeout without finding anything.
// The body is FuzzEntry.openSSHKey (Sources/KeyFormats/Fuzzing/FuzzEntry.swift), which the replay
// test calls too.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) { FuzzEntry.openSSHKey(bytes) }
