// PKCS#8 EncryptedPrivateKeyInfo (`ENCRYPTED PRIVATE KEY`, RFC 5958 §3, RFC 8018 §6):
// SEQUENCE { AlgorithmIdentifier (PBES2 {PBKDF2, cipher} or a PBES1 scheme), OCTET STRING }.
// OpenSSL parses and decrypts it (PKCS8_decrypt); this file only names the cipher for
// `keys show` and tells a wrong passphrase from an unsupported scheme.
internal import COpenSSL
import SecureMemory

final class EncryptedPKCS8 {
    private let sig: OpaquePointer
    /// The encryption cipher: the PBES2 cipher (e.g. `AES-256-CBC`), the PBES1 scheme
    /// (e.g. `PBE-SHA1-3DES`), or `pkcs8-encrypted` when it cannot be named.
    let cipherName: String
    /// The key-derivation iteration count (PBKDF2 or PBES1), when the file states one.
    let iterations: Int?
    /// The OpenSSL name of the bulk cipher (PBES2's, or the one a PBES1 scheme implies).
    private let bulkCipher: String?

    /// hostbook's ceiling on iterations: far above what ssh-keygen, openssl and
    /// pyca/cryptography write (2048), low enough that a hostile file cannot make an
    /// import spin for minutes.
    static let maximumIterations = 1 << 22

    init(der: SecretBytes) throws {
        OpenSSLErrors.clear()
        var parsed: OpaquePointer? = nil
        var remaining = 0
        der.withUnsafeBytes { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress?.assumingMemoryBound(to: UInt8.self)
            let start = p
            parsed = d2i_X509_SIG(nil, &p, buf.count)
            if let p, let start { remaining = buf.count - (p - start) }
        }
        guard let parsed else {
            OpenSSLErrors.clear()
            throw KeyFormatError.invalid("the encrypted PKCS#8 structure is damaged (not a valid EncryptedPrivateKeyInfo)")
        }
        sig = parsed
        guard remaining == 0 else {
            throw KeyFormatError.invalid("the encrypted PKCS#8 structure has \(remaining) unexpected trailing bytes")
        }
        cipherName = Self.cipherName(of: parsed)
        iterations = Self.iterations(of: parsed)
        bulkCipher = Self.bulkCipher(of: parsed)
        OpenSSLErrors.clear()
        if let iterations, iterations > Self.maximumIterations || iterations < 0 {
            throw KeyFormatError.unsupported("the PKCS#8 key asks for \(iterations) key-derivation iterations, more than hostbook allows (\(Self.maximumIterations))")
        }
    }

    deinit { X509_SIG_free(sig) }

    private static func cipherName(of sig: OpaquePointer) -> String {
        var algorithm: UnsafePointer<X509_ALGOR>? = nil
        X509_SIG_get0(sig, &algorithm, nil)
        guard let algorithm else { return "pkcs8-encrypted" }
        let scheme = OBJ_obj2nid(algorithm.pointee.algorithm)
        if scheme == NID_pbes2 {
            guard let parameter = algorithm.pointee.parameter,
                  let raw = ASN1_TYPE_unpack_sequence(PBE2PARAM_it(), parameter) else { return "pkcs8-encrypted" }
            let pbe2 = raw.assumingMemoryBound(to: PBE2PARAM.self)
            defer { PBE2PARAM_free(pbe2) }
            guard let encryption = pbe2.pointee.encryption else { return "pkcs8-encrypted" }
            return shortName(OBJ_obj2nid(encryption.pointee.algorithm)) ?? "pkcs8-encrypted"
        }
        return shortName(scheme) ?? "pkcs8-encrypted"
    }

    /// Refuses a cipher OpenSSL does not provide (e.g. DES, RC2: legacy provider only)
    /// before any passphrase is asked for. Other unsupported schemes show up on decryption.
    func checkSupported() throws {
        guard let bulkCipher else { return }
        guard let cipher = EVP_CIPHER_fetch(nil, bulkCipher, nil) else {
            OpenSSLErrors.clear()
            throw KeyFormatError.unsupported("the PKCS#8 encryption (\(cipherName)) uses \(bulkCipher), which OpenSSL does not provide; re-encrypt the key with PBES2 and AES-256-CBC")
        }
        EVP_CIPHER_free(cipher)
    }

    private static func bulkCipher(of sig: OpaquePointer) -> String? {
        var algorithm: UnsafePointer<X509_ALGOR>? = nil
        X509_SIG_get0(sig, &algorithm, nil)
        guard let algorithm else { return nil }
        let scheme = OBJ_obj2nid(algorithm.pointee.algorithm)
        if scheme == NID_pbes2 {
            guard let parameter = algorithm.pointee.parameter,
                  let raw = ASN1_TYPE_unpack_sequence(PBE2PARAM_it(), parameter) else { return nil }
            let pbe2 = raw.assumingMemoryBound(to: PBE2PARAM.self)
            defer { PBE2PARAM_free(pbe2) }
            guard let encryption = pbe2.pointee.encryption else { return nil }
            return shortName(OBJ_obj2nid(encryption.pointee.algorithm))
        }
        var cipherNID: Int32 = 0, digestNID: Int32 = 0
        guard EVP_PBE_find(EVP_PBE_TYPE_OUTER, scheme, &cipherNID, &digestNID, nil) == 1 else {
            OpenSSLErrors.clear(); return nil
        }
        return shortName(cipherNID)
    }

    /// PBKDF2's iteration count for PBES2, PBEPARAM's for PBES1 (scrypt is bounded by
    /// OpenSSL's own memory limit).
    private static func iterations(of sig: OpaquePointer) -> Int? {
        var algorithm: UnsafePointer<X509_ALGOR>? = nil
        X509_SIG_get0(sig, &algorithm, nil)
        guard let algorithm, let parameter = algorithm.pointee.parameter else { return nil }
        if OBJ_obj2nid(algorithm.pointee.algorithm) == NID_pbes2 {
            guard let raw = ASN1_TYPE_unpack_sequence(PBE2PARAM_it(), parameter) else { return nil }
            let pbe2 = raw.assumingMemoryBound(to: PBE2PARAM.self)
            defer { PBE2PARAM_free(pbe2) }
            guard let kdf = pbe2.pointee.keyfunc, OBJ_obj2nid(kdf.pointee.algorithm) == NID_id_pbkdf2,
                  let kdfParameter = kdf.pointee.parameter,
                  let rawKDF = ASN1_TYPE_unpack_sequence(PBKDF2PARAM_it(), kdfParameter) else { return nil }
            let pbkdf2 = rawKDF.assumingMemoryBound(to: PBKDF2PARAM.self)
            defer { PBKDF2PARAM_free(pbkdf2) }
            return integer(pbkdf2.pointee.iter)
        }
        guard let raw = ASN1_TYPE_unpack_sequence(PBEPARAM_it(), parameter) else { return nil }
        let pbe = raw.assumingMemoryBound(to: PBEPARAM.self)
        defer { PBEPARAM_free(pbe) }
        return integer(pbe.pointee.iter)
    }

    /// An ASN1_INTEGER as Int; -1 when it does not fit (refused by the caller).
    private static func integer(_ value: UnsafeMutablePointer<ASN1_INTEGER>?) -> Int? {
        guard let value else { return nil }
        var out: Int64 = 0
        guard ASN1_INTEGER_get_int64(&out, value) == 1 else { OpenSSLErrors.clear(); return -1 }
        return Int(out)
    }

    private static func shortName(_ nid: Int32) -> String? {
        guard nid != NID_undef, let sn = OBJ_nid2sn(nid) else { return nil }
        return String(cString: sn)
    }

    /// Decrypts to a key. A failed decryption (bad padding, or a decrypted structure that
    /// does not parse) is `.wrongPassphrase`; a scheme OpenSSL lacks is `.unsupported`.
    func decrypt(passphrase: SecretBytes) throws -> EVPKey {
        OpenSSLErrors.clear()
        let info: OpaquePointer? = passphrase.withUnsafeBytes { p in
            PKCS8_decrypt(sig, p.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(p.count))
        }
        guard let info else {
            let errors = OpenSSLErrors.drain()
            if let unsupported = errors.first(where: Self.meansUnsupported) {
                throw KeyFormatError.unsupported("the PKCS#8 encryption (\(cipherName)) is not supported (OpenSSL: \(unsupported.text)); re-encrypt the key with PBES2 and AES-256-CBC, or check that the file is not damaged")
            }
            throw KeyFormatError.wrongPassphrase
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        guard let pkey = EVP_PKCS82PKEY(info) else {
            let why = OpenSSLErrors.describe(default: "unknown key algorithm")
            throw KeyFormatError.invalid("the decrypted PKCS#8 key is not usable (\(why))")
        }
        OpenSSLErrors.clear()
        return EVPKey(owning: pkey)
    }

    private static func meansUnsupported(_ e: OpenSSLError) -> Bool {
        let codes: [Int32] = [EVP_R_UNSUPPORTED_CIPHER, EVP_R_UNSUPPORTED_KEY_DERIVATION_FUNCTION, EVP_R_UNSUPPORTED_PRF,
                              EVP_R_UNKNOWN_PBE_ALGORITHM, EVP_R_UNSUPPORTED_KEYLENGTH, EVP_R_UNKNOWN_CIPHER,
                              EVP_R_UNSUPPORTED_ALGORITHM, EVP_R_UNSUPPORTED_SALT_TYPE, EVP_R_UNKNOWN_DIGEST]
        if e.library == ERR_LIB_EVP && codes.contains(e.reason) { return true }
        let text = e.text.lowercased()
        return text.contains("unsupported") || text.contains("unknown")
    }
}
