// Certificate blobs (raw bytes) and their signature check; then the same bytes as a
// certificate line.
@testable import KeyFormats

func fuzzOne(_ bytes: [UInt8]) {
    if let cert = try? Certificate(blob: bytes) {
        _ = cert.verifySignature()
        _ = cert.isValid(at: 1_700_000_000)
        _ = cert.sha256Fingerprint
    }
    _ = try? PublicKeyFile.certificateLine(String(decoding: bytes, as: UTF8.self))
}
