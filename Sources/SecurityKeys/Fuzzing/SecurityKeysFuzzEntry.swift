// The body of the libFuzzer target `security-key-response` (fuzz/targets) and of its replay
// test (Tests/SecurityKeysTests): what hostbook makes of a provider's answers (a sign
// response's fields into a signature blob, an enrolment's public key and handle into a key,
// an attestation blob) and of ssh-sk-helper's replies. Must only not crash.
import KeyFormats

enum SecurityKeysFuzzEntry {
    /// The input is read as SSH strings: a selector byte, then fields.
    static func run(_ bytes: [UInt8]) {
        var r = SSHReader(bytes)
        let selector = (try? r.readByte()) ?? 0
        let kind: SecurityKeyKind = selector & 1 == 0 ? .ed25519 : .ecdsa
        let flags = (try? r.readByte()) ?? 0
        let counter = (try? r.readUInt32()) ?? 0
        let first = (try? r.readString()) ?? []
        let second = (try? r.readString()) ?? []
        let third = (try? r.readString()) ?? []
        _ = try? SecurityKeySignResponse(flags: flags, counter: counter, sigR: first, sigS: second).signatureBlob(for: kind)
        let application = String(decoding: third, as: UTF8.self)
        let attestation = (try? SecurityKeyAttestation.parse(third)) ?? SecurityKeyAttestation()
        let enrolled = SecurityKeyEnrollResponse(flags: flags, publicKey: first, keyHandle: second, attestation: attestation)
        if let key = try? enrolled.privateKey(kind: kind, application: application, comment: "fuzz") {
            _ = OpenSSHPrivateKey.record(key)
        }
        _ = try? SecurityKeyAttestation.parse(bytes)
        // ssh-sk-helper's side: the framed reply of each type, and the parts of one.
        for type in [SSHSKHelper.MessageType.sign, .enroll, .loadResident] {
            if var reply = try? SSHSKHelper.reply(bytes, expecting: type), type == .loadResident {
                _ = try? SSHSKHelper.residentKeys(&reply)
            }
        }
        _ = try? SSHSKHelper.key(record: bytes, comment: "fuzz")
        _ = try? SSHSKHelper.checkSignature(bytes, kind: kind)
    }
}
