// Which devices `import-tailscale` is about: the options as a TailscaleSelection (HostStore),
// which the import's planner alone applies to every device. Here only what needs the user: a
// name in the device list (`only`) that no device answers to is refused, and with neither
// `all` nor `only` the devices the import would plan are offered to the user, who picks by
// number (`parseChoice`; the program asks).
import HostStore
import ImportFormats
import KeyFormats

public struct TailscaleDeviceChoice {
    public let selection: TailscaleSelection
    public let all: Bool

    /// `only`: the comma-separated device names, or nil; `tags` as given (`tag:T` or `T`).
    public init(all: Bool, only list: String?, tags given: [String], onlineOnly: Bool, includeSkipped: Bool) throws {
        let tags = given.map { $0.hasPrefix("tag:") ? $0 : "tag:" + $0 }
        if tags.contains("tag:") { throw TailscaleRefusal.tagWithoutName }
        var only: [String]?
        if let list {
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            let names = list.split(separator: ",").map { String($0.drop(while: blank).reversed().drop(while: blank).reversed()) }
                .filter { !$0.isEmpty }
            guard !names.isEmpty else { throw TailscaleRefusal.onlyWithoutNames }
            only = names
        }
        self.all = all
        selection = TailscaleSelection(only: only, tags: tags, onlineOnly: onlineOnly, includeSkipped: includeSkipped)
    }

    /// What to hand to the importer: the devices (it applies `selection` to them), or the
    /// devices to offer the user when neither `all` nor `only` was given.
    public enum Devices {
        case importing([TailscaleNode])
        case offering([TailscaleNode])
    }

    public func devices(_ nodes: [TailscaleNode]) throws -> Devices {
        if selection.only != nil {
            if let missing = selection.firstMissingName(in: nodes) { throw TailscaleRefusal.deviceNotFound(missing) }
            return .importing(nodes)
        }
        if all { return .importing(nodes) }
        let offered = nodes.filter { selection.decide($0) == .planned }
        return offered.isEmpty ? .importing(nodes) : .offering(offered)
    }

    /// "1,3-5" → [0, 2, 3, 4]; "all" → every index; "" → none.
    public static func parseChoice(_ text: String, count: Int) throws -> [Int] {
        let t = text.lowercased()
        if t == "all" || t == "a" { return Array(0..<count) }
        var picked: [Int] = []
        for part in t.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let lo = Int(bounds[0]), let hi = Int(bounds.last!), lo >= 1, hi <= count, lo <= hi else {
                throw TailscaleRefusal.badChoice(String(part), count: count)
            }
            for i in lo...hi where !picked.contains(i - 1) { picked.append(i - 1) }
        }
        return picked
    }
}
