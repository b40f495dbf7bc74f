// Encryption and decryption of an openssh-key-v1 private section (docs/formats.md, "Key-file
// ciphers"). CBC/CTR/GCM/3DES through OpenSSL EVP, chacha20-poly1305@openssh.com through
// libsodium. The caller passes key ‖ IV as derived by bcrypt_pbkdf; plaintext stays in
// SecretBytes.
internal import COpenSSL
internal import CSodium
import SecureMemory

extension KeyFileCipher {
    /// Decrypts `ciphertext` (a whole number of blocks) into a new secret buffer.
    /// A tag that does not verify throws `.wrongPassphrase` (sshkey.c private2_decrypt).
    func decrypt(_ ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer, keyAndIV: SecretBytes) throws -> SecretBytes {
        precondition(keyAndIV.count == derivedLength && tag.count == tagLength)
        let out = SecretBytes(count: ciphertext.count)
        switch mode {
        case .none:
            out.withUnsafeMutableBytes { if ciphertext.count > 0 { $0.copyMemory(from: ciphertext) } }
        case .chachaPoly:
            try keyAndIV.withUnsafeBytes { k in
                try out.withUnsafeMutableBytes { o in try ChaChaPolyOpenSSH.open(ciphertext, tag: tag, key: k, into: o) }
            }
        case .cbc, .ctr, .gcm:
            try keyAndIV.withUnsafeBytes { k in
                try out.withUnsafeMutableBytes { o in
                    try runEVP(encrypt: false, input: ciphertext, output: o, key: k, tagIn: tag, tagOut: nil)
                }
            }
        }
        return out
    }

    /// Encrypts `plaintext` (already padded to the block size); returns ciphertext and tag.
    func encrypt(_ plaintext: SecretBytes, keyAndIV: SecretBytes) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        precondition(keyAndIV.count == derivedLength)
        var ct = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: tagLength)
        switch mode {
        case .none:
            plaintext.withUnsafeBytes { p in ct.withUnsafeMutableBytes { if p.count > 0 { $0.copyMemory(from: p) } } }
        case .chachaPoly:
            keyAndIV.withUnsafeBytes { k in
                plaintext.withUnsafeBytes { p in
                    ct.withUnsafeMutableBytes { c in
                        tag.withUnsafeMutableBytes { t in ChaChaPolyOpenSSH.seal(p, key: k, into: c, tag: t) }
                    }
                }
            }
        case .cbc, .ctr, .gcm:
            try keyAndIV.withUnsafeBytes { k in
                try plaintext.withUnsafeBytes { p in
                    try ct.withUnsafeMutableBytes { c in
                        try tag.withUnsafeMutableBytes { t in
                            try runEVP(encrypt: true, input: p, output: c, key: k, tagIn: nil, tagOut: t)
                        }
                    }
                }
            }
        }
        return (ct, tag)
    }

    private var evpCipher: OpaquePointer? {
        switch name {
        case "3des-cbc": EVP_des_ede3_cbc()
        case "aes128-cbc": EVP_aes_128_cbc()
        case "aes192-cbc": EVP_aes_192_cbc()
        case "aes256-cbc": EVP_aes_256_cbc()
        case "aes128-ctr": EVP_aes_128_ctr()
        case "aes192-ctr": EVP_aes_192_ctr()
        case "aes256-ctr": EVP_aes_256_ctr()
        case "aes128-gcm@openssh.com": EVP_aes_128_gcm()
        case "aes256-gcm@openssh.com": EVP_aes_256_gcm()
        default: nil
        }
    }

    /// One EVP pass over the whole section: no PKCS#7 padding (the section is block-aligned
    /// by its 1, 2, 3… padding), GCM with the 12 derived IV bytes as nonce and no AAD.
    private func runEVP(encrypt: Bool, input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer,
                        key: UnsafeRawBufferPointer, tagIn: UnsafeRawBufferPointer?, tagOut: UnsafeMutableRawBufferPointer?) throws {
        guard let cipher = evpCipher, let ctx = EVP_CIPHER_CTX_new() else {
            throw KeyFormatError.unsupported("the cryptography library has no \(name) cipher")
        }
        defer { EVP_CIPHER_CTX_free(ctx) }   // frees and wipes the expanded key schedule
        let keyPtr = key.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let ivPtr = keyPtr + keyLength
        let enc: Int32 = encrypt ? 1 : 0
        guard EVP_CipherInit_ex(ctx, cipher, nil, nil, nil, enc) == 1 else { throw evpFailure() }
        if mode == .gcm {
            guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, Int32(ivLength), nil) == 1 else { throw evpFailure() }
        }
        guard EVP_CipherInit_ex(ctx, nil, nil, keyPtr, ivPtr, enc) == 1,
              EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 else { throw evpFailure() }
        var written: Int32 = 0
        if input.count > 0 {
            guard EVP_CipherUpdate(ctx, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &written,
                                   input.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(input.count)) == 1
            else { throw evpFailure() }
        }
        if mode == .gcm, let tagIn {
            guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(tagIn.count),
                                      UnsafeMutableRawPointer(mutating: tagIn.baseAddress!)) == 1 else { throw evpFailure() }
        }
        var tail = [UInt8](repeating: 0, count: 32)
        var tailLength: Int32 = 0
        let finalOK = EVP_CipherFinal_ex(ctx, &tail, &tailLength) == 1
        if !finalOK {
            if mode == .gcm && !encrypt { throw KeyFormatError.wrongPassphrase }   // tag mismatch
            throw evpFailure()
        }
        guard Int(written) + Int(tailLength) == input.count else { throw evpFailure() }
        if mode == .gcm, let tagOut {
            guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, Int32(tagOut.count), tagOut.baseAddress) == 1 else { throw evpFailure() }
        }
    }

    private func evpFailure() -> KeyFormatError {
        ERR_clear_error()
        return KeyFormatError.invalid("the \(name) cipher failed in the cryptography library")
    }
}

/// chacha20-poly1305@openssh.com as key files use it (PROTOCOL.chacha20poly1305, sequence
/// number 0): K_main = the first 32 derived bytes, nonce = sequence number 0, Poly1305 key =
/// keystream block 0, payload XOR keystream from block 1, tag = Poly1305 over the ciphertext
/// only (not the RFC 8439 construction).
enum ChaChaPolyOpenSSH {
    static let nonce = [UInt8](repeating: 0, count: 8)

    static func open(_ ct: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
                     into out: UnsafeMutableRawBufferPointer) throws {
        let k = key.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let polyKey = SecretBytes(count: 32)
        let ok = polyKey.withUnsafeMutableBytes { pk -> Bool in
            let pkp = pk.baseAddress!.assumingMemoryBound(to: UInt8.self)
            _ = crypto_stream_chacha20(pkp, 32, nonce, k)
            return crypto_onetimeauth_poly1305_verify(tag.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                      ct.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                      UInt64(ct.count), pkp) == 0
        }
        guard ok else { throw KeyFormatError.wrongPassphrase }
        if ct.count > 0 {
            _ = crypto_stream_chacha20_xor_ic(out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                              ct.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                              UInt64(ct.count), nonce, 1, k)
        }
    }

    static func seal(_ pt: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
                     into out: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer) {
        let k = key.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if pt.count > 0 {
            _ = crypto_stream_chacha20_xor_ic(out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                              pt.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                              UInt64(pt.count), nonce, 1, k)
        }
        let polyKey = SecretBytes(count: 32)
        polyKey.withUnsafeMutableBytes { pk in
            let pkp = pk.baseAddress!.assumingMemoryBound(to: UInt8.self)
            _ = crypto_stream_chacha20(pkp, 32, nonce, k)
            _ = crypto_onetimeauth_poly1305(tag.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                            UnsafeRawPointer(out.baseAddress)?.assumingMemoryBound(to: UInt8.self),
                                            UInt64(pt.count), pkp)
        }
    }
}
