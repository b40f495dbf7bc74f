// What a bundle may be called. The name becomes the hosts' source `bundle:NAME` and the
// name of the folder a subscription is cloned into, so it is short, ASCII and never
// starts with `.` or `-`.

public enum BundleName {
    /// 1–64 letters, digits, `.`, `_`, `-`, not starting with `.` or `-`.
    public static func isValid(_ name: String) -> Bool { problem(name) == nil }

    /// Why `name` cannot name a bundle (already escaped for a terminal), or nil.
    public static func problem(_ name: String) -> String? {
        let u = name.utf8
        let ok = (1...64).contains(u.count) && u.first != UInt8(ascii: ".") && u.first != UInt8(ascii: "-")
            && u.allSatisfy { b in
                (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
                    || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
            }
        return ok ? nil : "invalid bundle name '\(BundleText.escaped(name))': use 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'"
    }

    /// The source of the hosts bundle `name` brought: `bundle:NAME`.
    public static func source(_ name: String) -> String { "bundle:" + name }
}
