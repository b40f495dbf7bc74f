// Fast matching of one lookup name against many hashed known_hosts names (hostfile.c
// host_hash). Each hashed entry has its own salt, so every check costs one HMAC-SHA1 per hashed
// entry; this keeps one OpenSSL HMAC context for the whole scan and only re-keys it per entry
// (about 0.3 µs per entry on this machine, against 0.9 µs for one-shot HMAC()).
internal import COpenSSL

public final class HashedNameMatcher {
    private let name: [UInt8]
    private let mac: OpaquePointer?
    private var context: OpaquePointer?
    private var output = [UInt8](repeating: 0, count: 64)

    /// `lookup` is the exact lookup string (lower-cased, `[host]:port` for other ports).
    public init(lookup: String) {
        self.name = Array(lookup.utf8)
        let mac = EVP_MAC_fetch(nil, "HMAC", nil)
        self.mac = mac
        let context = mac.flatMap { EVP_MAC_CTX_new($0) }
        self.context = context
        if let context {
            // Both C strings must outlive EVP_MAC_CTX_set_params: OSSL_PARAM keeps pointers.
            "digest".withCString { keyName in
                "SHA1".withCString { digestName in
                    var params = [OSSL_PARAM_construct_utf8_string(keyName, UnsafeMutablePointer(mutating: digestName), 0),
                                  OSSL_PARAM_construct_end()]
                    if EVP_MAC_CTX_set_params(context, &params) != 1 {
                        // Unusable: fall back to the one-shot HMAC in matches().
                        EVP_MAC_CTX_free(context)
                        self.context = nil
                    }
                }
            }
        }
    }

    deinit {
        if let context { EVP_MAC_CTX_free(context) }
        if let mac { EVP_MAC_free(mac) }
    }

    /// True when HMAC-SHA1(salt, lookup) equals `expected` (20 bytes each).
    public func matches(salt: UnsafeRawBufferPointer, mac expected: UnsafeRawBufferPointer) -> Bool {
        guard expected.count == 20, salt.count == HashedHostName.saltLength else { return false }
        guard let context else {
            // No OpenSSL MAC provider: the one-shot path gives the same answer, slower.
            return name.withUnsafeBytes { Digest.hmac(.sha1, key: salt, message: $0) } == Array(expected)
        }
        var length = 0
        let ok = name.withUnsafeBufferPointer { n in
            output.withUnsafeMutableBufferPointer { o in
                EVP_MAC_init(context, salt.baseAddress!.assumingMemoryBound(to: UInt8.self), salt.count, nil) == 1
                    && EVP_MAC_update(context, n.baseAddress, n.count) == 1
                    && EVP_MAC_final(context, o.baseAddress, &length, o.count) == 1
            }
        }
        guard ok, length == 20 else { return false }
        return output.withUnsafeBytes { o in memcmp(o.baseAddress!, expected.baseAddress!, 20) == 0 }
    }

    public func matches(_ hashed: HashedHostName) -> Bool {
        hashed.salt.withUnsafeBytes { s in hashed.mac.withUnsafeBytes { m in matches(salt: s, mac: m) } }
    }
}
