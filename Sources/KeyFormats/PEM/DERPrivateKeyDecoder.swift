// DER private keys → EVP_PKEY through OpenSSL 3's decoders (OSSL_DECODER), with the
// structure fixed by the PEM label so a PKCS#1 file is never read as something else.
// No passphrase is ever asked for here: encrypted data is decrypted before this layer,
// and a refusing callback is installed so OpenSSL can never prompt on the terminal.
internal import COpenSSL

enum DERPrivateKeyDecoder {
    enum Structure {
        /// PKCS#1 RSAPrivateKey (`RSA PRIVATE KEY`).
        case pkcs1
        /// SEC1 ECPrivateKey (`EC PRIVATE KEY`).
        case sec1
        /// PKCS#8 PrivateKeyInfo (`PRIVATE KEY`), any algorithm.
        case pkcs8

        var openSSLStructure: String {
            switch self { case .pkcs1, .sec1: "type-specific"; case .pkcs8: "PrivateKeyInfo" }
        }
        /// How a user would name the structure.
        var name: String {
            switch self { case .pkcs1: "PKCS#1 RSAPrivateKey"; case .sec1: "SEC1 ECPrivateKey"; case .pkcs8: "PKCS#8 PrivateKeyInfo" }
        }

        var keyType: String? {
            switch self { case .pkcs1: "RSA"; case .sec1: "EC"; case .pkcs8: nil }
        }
    }

    enum Outcome {
        case key(EVPKey)
        /// OpenSSL could not read the DER; `reason` is OpenSSL's text.
        case undecodable(reason: String)
    }

    static func decode(_ der: UnsafeRawBufferPointer, as structure: Structure) -> Outcome {
        OpenSSLErrors.clear()
        guard der.count > 0, let base = der.baseAddress else { return .undecodable(reason: "no data") }
        var pkey: OpaquePointer? = nil
        // EVP_PKEY_KEYPAIR: all parameters, the public and the private key.
        let selection = Int32(OSSL_KEYMGMT_SELECT_PRIVATE_KEY | OSSL_KEYMGMT_SELECT_PUBLIC_KEY |
                              OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)
        // The decoder context keeps these names by pointer: they live in `names` until it is freed.
        let names = CStrings()
        guard let ctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, names("DER"), names(structure.openSSLStructure),
                                                      structure.keyType.map { names($0) }, selection, nil, nil) else {
            OpenSSLErrors.clear()
            return .undecodable(reason: "OpenSSL has no decoder for \(structure.name)")
        }
        defer { withExtendedLifetime(names) { OSSL_DECODER_CTX_free(ctx) } }
        _ = OSSL_DECODER_CTX_set_pem_password_cb(ctx, { _, _, _, _ in 0 }, nil)
        var pointer: UnsafePointer<UInt8>? = base.assumingMemoryBound(to: UInt8.self)
        var remaining = der.count
        let ok = OSSL_DECODER_from_data(ctx, &pointer, &remaining) == 1
        guard ok, let pkey else {
            if let pkey { EVP_PKEY_free(pkey) }
            // OpenSSL's decoders say only "unsupported" when no decoder accepts the bytes.
            OpenSSLErrors.clear()
            return .undecodable(reason: "not a valid \(structure.name)")
        }
        OpenSSLErrors.clear()
        let key = EVPKey(owning: pkey)
        guard remaining == 0 else { return .undecodable(reason: "\(remaining) unexpected bytes after the key") }
        return .key(key)
    }
}
