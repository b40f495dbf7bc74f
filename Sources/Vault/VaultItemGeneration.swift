// Which write of an item a vault item holds: the `generation` attribute. Replacing a secret
// writes a new item next to the old one and then deletes the old one (a Secret Service such
// as KeePassXC lets a program change only the items that same process created, and would
// ask the user otherwise). While both exist, the newest generation is the secret; an item
// without the attribute (written before generations, or by another program) is the oldest.
#if canImport(Glibc)
import Glibc
#endif

struct VaultItemGeneration: Comparable, Hashable, Sendable {
    static let attribute = "generation"

    /// Microseconds since 1970 (20 digits, so text order is time order), a dash, and 8
    /// random hex digits so that two writes in the same microsecond differ.
    let value: String

    init(value: String) { self.value = value }

    /// A new generation, newer than every earlier one made on this machine's clock.
    static func next() -> VaultItemGeneration {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let micros = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
        let digits = String(micros)
        let random = UInt32.random(in: 0...UInt32.max)
        let hex = String(random, radix: 16)
        return VaultItemGeneration(value: String(repeating: "0", count: max(0, 20 - digits.count)) + digits + "-"
                                   + String(repeating: "0", count: 8 - hex.count) + hex)
    }

    static func < (a: VaultItemGeneration, b: VaultItemGeneration) -> Bool { a.value < b.value }
}
