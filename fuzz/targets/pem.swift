// PEM / PKCS#1 / SEC1 / PKCS#8 private keys, without and with a passphrase.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    _ = try? PEMPrivateKey.isEncrypted(bytes)
    _ = try? PEMPrivateKey.parse(bytes, passphrase: nil)
    _ = try? PEMPrivateKey.parse(bytes, passphrase: fuzzPassphrase)
}
