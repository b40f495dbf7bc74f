// What an mpint read from the wire may be, as OpenSSH reads it (sshbuf-getput-crypto.c
// sshbuf_get_bignum2, RFC 4251 §5): a negative value is refused, so is one over 16384 bits
// (more than 2049 bytes with the sign byte), and superfluous leading zero bytes are
// stripped. SSHReader.readMPInt and KeyDataReader.readSecretMPInt both read by this rule.

enum MPIntRule {
    enum Problem: Error, Equatable {
        /// The sign bit is set.
        case negative
        /// More than 16384 bits.
        case tooLarge
    }

    /// Where the magnitude (big-endian, without leading zeros; empty for zero) starts in
    /// `raw`, the bytes of the mpint's string.
    static func magnitudeStart<Bytes: Collection<UInt8>>(of raw: Bytes) throws(Problem) -> Bytes.Index {
        if let first = raw.first, first & 0x80 != 0 { throw .negative }
        guard raw.count <= 2049 else { throw .tooLarge }
        return raw.firstIndex(where: { $0 != 0 }) ?? raw.endIndex
    }
}
