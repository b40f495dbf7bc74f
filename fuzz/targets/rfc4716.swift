// RFC 4716 "SSH2 PUBLIC KEY" blocks; what parses must re-encode and parse back equal.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    guard let line = try? RFC4716PublicKey.parse(bytes) else { return }
    let again = try? RFC4716PublicKey.parse(Array(RFC4716PublicKey.encode(line.key, comment: line.comment).utf8))
    if again?.key != line.key { fatalError("RFC 4716 round trip changed the key") }
}
