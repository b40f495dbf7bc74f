// OpenSSL "traditional" PEM encryption (RFC 1421 §4.6.1; docs/formats.md, "PEM and PKCS#8"):
//
//     Proc-Type: 4,ENCRYPTED
//     DEK-Info: <CIPHER>,<IV as hex>
//
// key = EVP_BytesToKey(cipher, MD5, salt = first 8 bytes of the IV, passphrase, count 1);
// the DER is encrypted in the named mode (CBC in practice) with PKCS#7 padding.
// Everything runs through libcrypto; the decrypted DER stays in secure memory.
internal import COpenSSL
import SecureMemory

struct TraditionalPEMEncryption {
    /// The cipher as the file names it, e.g. `AES-128-CBC`.
    let cipherName: String
    let iv: [UInt8]

    /// Reads Proc-Type/DEK-Info; nil when the block is not encrypted.
    static func from(_ armor: PEMArmor) throws -> TraditionalPEMEncryption? {
        guard let procType = armor.header("Proc-Type") else {
            if armor.header("DEK-Info") != nil { throw KeyFormatError.invalid("the PEM block has DEK-Info but no Proc-Type header") }
            return nil
        }
        let parts = procType.split(separator: ",").map { $0.trimmingSpaces }
        guard parts.count == 2, parts[0] == "4" else {
            throw KeyFormatError.invalid("unknown PEM Proc-Type '\(procType.prefix(40))' (expected '4,ENCRYPTED')")
        }
        guard parts[1] == "ENCRYPTED" else { return nil }
        guard let dek = armor.header("DEK-Info") else {
            throw KeyFormatError.invalid("the PEM block is marked ENCRYPTED but has no DEK-Info header")
        }
        let fields = dek.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard fields.count == 2, !fields[0].isEmpty, let iv = Hex.decode(fields[1]) else {
            throw KeyFormatError.invalid("the DEK-Info header is malformed (expected 'CIPHER,IV-IN-HEX')")
        }
        return TraditionalPEMEncryption(cipherName: fields[0].uppercased(), iv: iv)
    }

    /// Refuses a cipher OpenSSL does not provide, before any passphrase is asked for.
    func checkSupported() throws {
        guard let cipher = EVP_CIPHER_fetch(nil, cipherName, nil) else {
            OpenSSLErrors.clear()
            throw Self.unsupported(cipherName)
        }
        EVP_CIPHER_free(cipher)
    }

    private static func unsupported(_ name: String) -> KeyFormatError {
        KeyFormatError.unsupported("the PEM cipher \(name.prefix(40)) is not supported (OpenSSL does not provide it); re-encrypt the key with AES-256-CBC")
    }

    /// Decrypts `ciphertext` with `passphrase`. Bad padding (OpenSSL's "bad decrypt")
    /// means the passphrase is wrong: `.wrongPassphrase`. Returns the plaintext DER.
    func decrypt(_ ciphertext: SecretBytes, passphrase: SecretBytes) throws -> SecretBytes {
        OpenSSLErrors.clear()
        guard let cipher = EVP_CIPHER_fetch(nil, cipherName, nil) else {
            OpenSSLErrors.clear()
            throw Self.unsupported(cipherName)
        }
        defer { EVP_CIPHER_free(cipher) }
        let keyLength = Int(EVP_CIPHER_get_key_length(cipher))
        let ivLength = Int(EVP_CIPHER_get_iv_length(cipher))
        let blockSize = Int(EVP_CIPHER_get_block_size(cipher))
        guard ivLength >= 8, iv.count == ivLength else {
            throw KeyFormatError.invalid("the DEK-Info IV has \(iv.count) bytes; \(cipherName) needs \(ivLength)")
        }
        guard keyLength > 0, keyLength <= 64 else { throw KeyFormatError.unsupported("the PEM cipher \(cipherName) is not supported") }
        if blockSize > 1, ciphertext.count % blockSize != 0 {
            throw KeyFormatError.invalid("the encrypted key is not a whole number of cipher blocks (the file is damaged or truncated)")
        }

        // EVP_BytesToKey(MD5, count 1) with the first 8 IV bytes as salt (PKCS5_SALT_LEN).
        let key = SecretBytes(count: keyLength)
        let derived = key.withUnsafeMutableBytes { k in
            passphrase.withUnsafeBytes { p in
                iv.withUnsafeBufferPointer { ivp in
                    EVP_BytesToKey(cipher, EVP_md5(), ivp.baseAddress, p.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                   Int32(p.count), 1, k.baseAddress!.assumingMemoryBound(to: UInt8.self), nil)
                }
            }
        }
        guard Int(derived) == keyLength else {
            OpenSSLErrors.clear()
            throw KeyFormatError.unsupported("could not derive a \(cipherName) key (\(OpenSSLErrors.describe(default: "OpenSSL refused")))")
        }

        guard let ctx = EVP_CIPHER_CTX_new() else { throw KeyFormatError.invalid("out of memory") }
        defer { EVP_CIPHER_CTX_free(ctx) }
        let output = SecretBytes(count: ciphertext.count + max(blockSize, 1))
        var total: Int32 = 0
        let status: Bool = output.withUnsafeMutableBytes { out in
            let o = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return key.withUnsafeBytes { k in
                iv.withUnsafeBufferPointer { ivp in
                    ciphertext.withUnsafeBytes { c in
                        guard EVP_DecryptInit_ex2(ctx, cipher, k.baseAddress!.assumingMemoryBound(to: UInt8.self), ivp.baseAddress, nil) == 1 else { return false }
                        var n: Int32 = 0
                        guard EVP_DecryptUpdate(ctx, o, &n, c.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(c.count)) == 1 else { return false }
                        total = n
                        var final: Int32 = 0
                        guard EVP_DecryptFinal_ex(ctx, o + Int(n), &final) == 1 else { return false }
                        total += final
                        return true
                    }
                }
            }
        }
        guard status else {
            if OpenSSLErrors.drainContainsBadDecrypt() { throw KeyFormatError.wrongPassphrase }
            // Any other decryption failure with a well-formed file also comes from the key.
            throw KeyFormatError.wrongPassphrase
        }
        OpenSSLErrors.clear()
        return output.slice(0..<Int(total))
    }
}
