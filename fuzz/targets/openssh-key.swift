// openssh-key-v1 private keys (OpenSSHPrivateKey), without and with a passphrase. The
// passphrase is tried only when the parser itself reads few bcrypt rounds from the
// envelope: it accepts any count OpenSSH does (up to 2³²−1), which would trip libFuzzer's
// per-input timeout without finding anything.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    _ = try? OpenSSHPrivateKey.isEncrypted(bytes)
    _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: nil)
    if fewBcryptRounds(bytes) {
        _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: fuzzPassphrase)
    }
}

/// True when the file is not bcrypt-encrypted, or asks for at most 64 rounds, as the parser
/// reads the envelope (an envelope it cannot read fails before any key derivation).
func fewBcryptRounds(_ bytes: [UInt8]) -> Bool {
    guard let rounds = try? OpenSSHPrivateKey.bcryptRounds(bytes) else { return true }
    return rounds <= 64
}
