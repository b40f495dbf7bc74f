// The body of the libFuzzer target `token-response` (fuzz/targets) and of its replay test
// (Tests/TokensTests): what hostbook makes of a PKCS#11 module's answers (attribute values
// into a public key, a C_Sign answer into an SSH signature blob). Must only not crash.
import KeyFormats

enum TokensFuzzEntry {
    /// The input is read as SSH strings: a selector byte, then attribute values.
    static func run(_ bytes: [UInt8]) {
        var r = SSHReader(bytes)
        let selector = (try? r.readByte()) ?? 0
        let keyType: UInt = [0, 3, 0x40, 7][Int(selector & 3)]
        let id = (try? r.readString()) ?? []
        let label = (try? r.readString()) ?? []
        let first = try? r.readString()
        let second = try? r.readString()
        let answer = (try? r.readString()) ?? []
        guard let object = try? TokenKeyObject.parse(keyType: keyType, id: id, label: label, modulus: first, exponent: second,
                                                     ecParams: first, ecPoint: second) else { return }
        _ = object.publicKey.line()
        for flags: UInt32 in [0, 2, 4] {
            guard let request = try? TokenSignature(key: object.publicKey, data: bytes, flags: flags),
                  let blob = try? request.blob(answer: answer, key: object.publicKey) else { continue }
            _ = object.publicKey.verifies(signatureBlob: blob, over: bytes)
        }
    }
}
