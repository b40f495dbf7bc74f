// openssh-key-v1 private keys (OpenSSHPrivateKey, written on the `keys` branch), without
// and with a passphrase. Meaningful once that parser has landed on main.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    _ = try? OpenSSHPrivateKey.isEncrypted(bytes)
    _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: nil)
    _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: fuzzPassphrase)
}
