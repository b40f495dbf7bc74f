// PuTTY .ppk files. A passphrase is tried only when the file's Argon2 cost is small, so
// the fuzzer spends its time in the parsers rather than in Argon2 (the cost ceilings
// themselves are checked by PPKKeyDerivation.checkSupported, which runs on every input).
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    _ = try? PPKFile.isEncrypted(bytes)
    _ = try? PPKFile.parse(bytes, passphrase: nil)
    if let envelope = try? PPKEnvelope.parse(bytes) {
        if let a = envelope.argon2, a.memory > 65_536 || a.passes > 4 { return }
        _ = try? PPKFile.parse(bytes, passphrase: fuzzPassphrase)
        // The private blob parser on its own, past the MAC that guards it in a real file.
        if let key = try? PublicKey(blob: envelope.publicBlob) {
            _ = try? PPKPrivateBlob.key(publicKey: key, privateBlob: envelope.privateBlob)
        }
    }
}
