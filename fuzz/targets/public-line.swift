// One `.pub` / authorized_keys line, and whole public key files.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? PublicKeyLine.parse(text)
    _ = try? AuthorizedKeysLine.parse(text)
    _ = try? PublicKeyFile.parse(bytes)
}
