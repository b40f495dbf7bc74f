// AES-256-CBC without padding (PuTTY .ppk: docs/formats.md, "PuTTY .ppk"), through OpenSSL EVP.
// Input and output stay in secure memory.
internal import COpenSSL
import SecureMemory

enum CBCDecryption {
    /// Decrypts whole 16-byte blocks; `data.count` must be a multiple of 16.
    static func aes256(key: SecretBytes, iv: SecretBytes, data: SecretBytes) throws -> SecretBytes {
        precondition(key.count == 32 && iv.count == 16)
        guard data.count % 16 == 0 else {
            throw KeyFormatError.invalid("the encrypted data is not a whole number of AES blocks (the file is damaged)")
        }
        OpenSSLErrors.clear()
        guard let ctx = EVP_CIPHER_CTX_new() else { throw KeyFormatError.invalid("out of memory") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        let output = SecretBytes(count: data.count + 16)
        var total: Int32 = 0
        let ok: Bool = output.withUnsafeMutableBytes { out in
            key.withUnsafeBytes { k in
                iv.withUnsafeBytes { v in
                    data.withUnsafeBytes { d in
                        let o = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        guard EVP_DecryptInit_ex(ctx, EVP_aes_256_cbc(), nil, k.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                 v.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 1,
                              EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else { return false }
                        if d.count == 0 { return true }
                        var n: Int32 = 0
                        guard EVP_DecryptUpdate(ctx, o, &n, d.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(d.count)) == 1 else { return false }
                        var f: Int32 = 0
                        guard EVP_DecryptFinal_ex(ctx, o + Int(n), &f) == 1 else { return false }
                        total = n + f
                        return true
                    }
                }
            }
        }
        guard ok else {
            throw KeyFormatError.invalid("AES-256-CBC decryption failed (\(OpenSSLErrors.describe(default: "OpenSSL error")))")
        }
        OpenSSLErrors.clear()
        return output.slice(0..<Int(total))
    }
}
