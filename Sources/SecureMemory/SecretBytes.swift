// Secret bytes (passwords, passphrases, decrypted keys) kept in libsodium secure memory:
// guarded pages, locked against swapping where the system allows, and zeroed when released
// (sodium_free wipes before freeing). Every layer passes secrets around as `SecretBytes`.
internal import CSodium

/// Makes sure libsodium is initialised exactly once before first use.
/// `sodium_init` is itself idempotent and thread-safe; the lazy global only avoids repeat calls.
private let sodiumReady: Bool = sodium_init() >= 0

public enum Sodium {
    /// Initialises libsodium; safe to call any number of times from any thread.
    @discardableResult
    public static func initialize() -> Bool { sodiumReady }

    /// Wipes `count` bytes at `pointer` in a way the compiler cannot optimise away.
    public static func wipe(_ pointer: UnsafeMutableRawPointer, count: Int) {
        guard count > 0 else { return }
        sodium_memzero(pointer, count)
    }

    /// Wipes the contents of an array in place (used for transient copies that must exist
    /// outside secure memory for a moment). It zeroes the storage the array already has:
    /// `withUnsafeMutableBytes` on storage shared with another array value would first copy
    /// it (copy-on-write) and wipe only the fresh copy, leaving the bytes where they were.
    /// `withUnsafeBytes` never copies, so every array sharing the storage reads zeros after.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeBytes { buf in
            if let base = buf.baseAddress, buf.count > 0 { sodium_memzero(UnsafeMutableRawPointer(mutating: base), buf.count) }
        }
    }

    /// Constant-time comparison of two byte buffers of equal length.
    public static func constantTimeEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        return sodium_memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    /// Fills `buffer` with cryptographically secure random bytes.
    public static func randomBytes(_ buffer: UnsafeMutableRawBufferPointer) {
        _ = sodiumReady
        if let base = buffer.baseAddress, buffer.count > 0 { randombytes_buf(base, buffer.count) }
    }

    public static func randomBytes(count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { randomBytes($0) }
        return out
    }
}

/// A fixed-size buffer of secret bytes in libsodium secure memory, wiped on release.
///
/// The bytes never leave secure memory unless a caller copies them out through
/// `withUnsafeBytes`; callers that must do so wipe their copy with `Sodium.wipe`.
public final class SecretBytes: @unchecked Sendable {
    // @unchecked: the buffer is written only during initialisation or through
    // `withUnsafeMutableBytes`, which callers use before sharing the value.
    private let pointer: UnsafeMutableRawPointer?
    public let count: Int

    /// Allocates `count` zero bytes of secure memory.
    public init(count: Int) {
        precondition(count >= 0, "negative SecretBytes size")
        Sodium.initialize()
        self.count = count
        if count == 0 {
            pointer = nil
        } else {
            guard let p = sodium_malloc(count) else {
                fatalError("hostbook: out of secure memory (sodium_malloc of \(count) bytes failed)")
            }
            sodium_memzero(p, count)
            pointer = p
        }
    }

    /// Copies `bytes` into secure memory. The caller remains responsible for wiping its source.
    public convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        self.init(count: bytes.count)
        guard let pointer else { return }
        let dst = pointer.assumingMemoryBound(to: UInt8.self)
        var i = 0
        for b in bytes { dst[i] = b; i += 1 }
    }

    /// Copies a raw buffer into secure memory.
    public convenience init(copying raw: UnsafeRawBufferPointer) {
        self.init(count: raw.count)
        if let pointer, let src = raw.baseAddress, raw.count > 0 { pointer.copyMemory(from: src, byteCount: raw.count) }
    }

    /// Takes the bytes of `array` into secure memory and wipes the array.
    public convenience init(consuming array: inout [UInt8]) {
        self.init(copying: array)
        Sodium.wipe(&array)
        array.removeAll()
    }

    deinit {
        if let pointer { sodium_free(pointer) }
    }

    public var isEmpty: Bool { count == 0 }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// A new secret holding `range` of this one.
    public func slice(_ range: Range<Int>) -> SecretBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// A new secret of `count` bytes that starts with the first `used` bytes of this one,
    /// for a buffer that grows while it is filled (e.g. by read(2)): the bytes move from
    /// secure memory to secure memory, and this buffer is wiped when it is released
    /// (sodium_free), so growing leaves no copy behind.
    public func grown(to count: Int, keeping used: Int) -> SecretBytes {
        precondition(used >= 0 && used <= self.count && used <= count)
        let bigger = SecretBytes(count: count)
        if used > 0 {
            bigger.withUnsafeMutableBytes { dst in withUnsafeBytes { dst.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: used) } }
        }
        return bigger
    }

    /// A new secret whose bytes are `self` followed by `other`.
    public func appending(_ other: SecretBytes) -> SecretBytes {
        let out = SecretBytes(count: count + other.count)
        out.withUnsafeMutableBytes { dst in
            withUnsafeBytes { a in if a.count > 0 { dst.baseAddress!.copyMemory(from: a.baseAddress!, byteCount: a.count) } }
            other.withUnsafeBytes { b in if b.count > 0 { (dst.baseAddress! + count).copyMemory(from: b.baseAddress!, byteCount: b.count) } }
        }
        return out
    }

    /// Constant-time equality of contents.
    public func constantTimeEquals(_ other: SecretBytes) -> Bool {
        withUnsafeBytes { a in other.withUnsafeBytes { b in Sodium.constantTimeEqual(a, b) } }
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible {
    // Never print secret contents, not even by accident in a log or error message.
    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    public var debugDescription: String { description }
}
