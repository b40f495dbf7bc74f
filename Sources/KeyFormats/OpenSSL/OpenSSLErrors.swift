// OpenSSL's per-thread error queue, read into words. Every call into libcrypto that can
// fail is followed by `OpenSSLErrors.drain()` (or `clear()`), so a stale error never
// leaks into a later message, and no raw error code reaches the user without words.
internal import COpenSSL

struct OpenSSLError: Sendable {
    let library: Int32
    let reason: Int32
    /// OpenSSL's own text for the reason (e.g. "bad decrypt"), never secret.
    let text: String
}

enum OpenSSLErrors {
    /// Empties the queue, returning what it held (oldest first).
    static func drain() -> [OpenSSLError] {
        var out: [OpenSSLError] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            let library = ERR_GET_LIB(code)
            let reason = ERR_GET_REASON(code)
            let text = ERR_reason_error_string(code).map { String(cString: $0) } ?? "OpenSSL error \(reason) in library \(library)"
            // Keep the list bounded: a misbehaving call could queue many entries.
            if out.count < 16 { out.append(OpenSSLError(library: library, reason: reason, text: text)) }
        }
        return out
    }

    static func clear() { ERR_clear_error() }

    /// The queue's reasons joined into one phrase for an error message, then cleared.
    static func describe(default fallback: String) -> String {
        let errors = drain()
        guard let first = errors.first else { return fallback }
        return first.text
    }

    /// True when the queue holds "bad decrypt" (wrong key → invalid CBC padding). Clears it.
    static func drainContainsBadDecrypt() -> Bool {
        drain().contains { $0.library == ERR_LIB_EVP && $0.reason == EVP_R_BAD_DECRYPT }
    }
}
