// openssh-key-v1 private keys (OpenSSHPrivateKey, written on the `keys` branch), without
// and with a passphrase. The passphrase is tried only when the file asks for few bcrypt
// rounds: the parser accepts up to 10000 (about a minute), which would trip libFuzzer's
// per-input timeout without finding anything.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    _ = try? OpenSSHPrivateKey.isEncrypted(bytes)
    _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: nil)
    if bcryptRounds(bytes).map({ $0 <= 64 }) ?? true {
        _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: fuzzPassphrase)
    }
}

/// The bcrypt rounds in the kdfoptions (PROTOCOL.key), read with the public wire reader;
/// nil when the file has none or cannot be read that far.
func bcryptRounds(_ bytes: [UInt8]) -> UInt32? {
    let text = String(decoding: bytes, as: UTF8.self)
    let body = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).filter { !$0.hasPrefix("-----") }.joined()
    guard let blob = Base64.decode(body), blob.count > 15 else { return nil }
    var r = SSHReader(Array(blob.dropFirst(15)))
    guard (try? r.readString()) != nil, let kdf = try? r.readText(), kdf == "bcrypt",
          let options = try? r.readString() else { return nil }
    var o = SSHReader(options)
    guard (try? o.readString()) != nil else { return nil }
    return try? o.readUInt32()
}
