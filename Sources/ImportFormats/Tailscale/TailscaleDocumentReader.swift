// Reads a Tailscale export in layers: the JSON envelope (which shape is it?), then each
// device in its format — a status PeerStatus (`Self`, `Peer` values) or an API v2 device —
// into a `TailscaleNode`. Unknown members are skipped (the CLI help says the format
// changes between releases); wrong types are refused. See docs/formats.md, "Tailscale JSON".
import KeyFormats

/// Why an input cannot be imported. Nothing is written when any of these is thrown: HostStore
/// reports it as a `HostStoreError` of kind `.unusableInput` (TailscaleImporter.readDocument), with
/// the same message and a hint saying what to pass instead.
public enum TailscaleInputError: Error, Sendable, Equatable {
    /// No bytes at all, or only whitespace.
    case empty
    /// Not JSON, or JSON cut off part way.
    case notJSON(JSONSyntaxError)
    /// Valid JSON that is neither a status nor a device list.
    case notTailscale
    /// A status or device list with a member of the wrong type.
    case unexpectedShape(String)
    /// A status taken while the node was not running: it lists no peers worth importing.
    case notRunning(String)
    /// The input could not be read.
    case unreadable(String)
    /// UTF-16 text (what Windows PowerShell's `>` writes), not UTF-8.
    case utf16

    public var message: String {
        switch self {
        case .empty:
            "the input is empty; expected the output of 'tailscale status --json' or an API device list"
        case .notJSON(let e):
            "the input is not valid JSON: \(e)"
        case .notTailscale:
            "the input is JSON but not a Tailscale status or device list"
        case .unexpectedShape(let what):
            "the input looks like Tailscale JSON but \(what)"
        case .notRunning(let state):
            "the Tailscale status was taken while Tailscale was not running (BackendState \(state)); it lists no peers"
        case .unreadable(let why):
            why
        case .utf16:
            "the input is UTF-16 text; JSON must be UTF-8"
        }
    }
}

extension TailscaleInputError {
    /// What to do about it, or nil.
    public var hint: String? {
        switch self {
        case .notJSON(let e) where e.truncated:
            "Export it again in full: tailscale status --json > status.json"
        case .notJSON, .empty, .notTailscale, .unexpectedShape:
            "Pass the output of 'tailscale status --json' or the body of GET /api/v2/tailnet/-/devices."
        case .notRunning:
            "Start Tailscale ('tailscale up') and export the status again."
        case .unreadable:
            nil
        case .utf16:
            "In PowerShell, save it as UTF-8: tailscale status --json | Out-File -Encoding utf8 status.json"
        }
    }
}

public enum TailscaleDocumentReader {
    /// Reads a whole document from `source`. An input that cannot be imported throws a
    /// `TailscaleInputError`.
    public static func read(_ source: any ByteSource) throws -> TailscaleDocument {
        let json = JSONStreamReader(source)
        do {
            return try readEnvelope(json)
        } catch let e as JSONSyntaxError {
            throw TailscaleInputError.notJSON(e)
        } catch let e as JSONShapeError {
            throw TailscaleInputError.unexpectedShape(e.description)
        } catch let e as ByteSourceError {
            throw TailscaleInputError.unreadable(e.message)
        }
    }

    // MARK: Envelope

    private static func readEnvelope(_ json: JSONStreamReader) throws -> TailscaleDocument {
        if try json.skipByteOrderMark() { throw TailscaleInputError.utf16 }
        if try json.atEnd() { throw TailscaleInputError.empty }
        guard try json.peekKind() == .object else {
            // Check the rest is JSON at all, so a broken file is reported as broken.
            try json.skipValue()
            try json.expectEnd()
            throw TailscaleInputError.notTailscale
        }
        var backendState: String?
        var sawSelf = false, sawPeer = false, sawDevices = false
        var selfNode: TailscaleNode?
        var peers: [TailscaleNode] = []
        var devices: [TailscaleNode] = []
        var users: [Int64: String] = [:]
        var legacySuffix: String?, currentSuffix: String?
        // The domain every device of the tailnet's own (not shared in) is named under, if
        // they agree: an API device list states no suffix.
        var deviceDomains = DeviceDomains()
        try json.readObject { key in
            switch key {
            case "BackendState":
                backendState = try json.readOptionalString(path: "BackendState")
            case "MagicDNSSuffix":
                legacySuffix = try json.readOptionalString(path: "MagicDNSSuffix")
            case "CurrentTailnet":
                currentSuffix = try readTailnetSuffix(json)
            case "Self":
                sawSelf = true
                if try json.peekKind() == .null { try json.skipValue(); return }
                var node = try readPeer(json, path: "Self")
                node.exclusion = .thisMachine
                selfNode = node
            case "Peer":
                sawPeer = true
                let kind = try json.peekKind()
                if kind == .null { try json.skipValue(); return }
                guard kind == .object else { throw JSONShapeError(path: "Peer", expected: "an object", found: kind) }
                try json.readObject { nodeKey in
                    var node = try readPeer(json, path: "Peer[\"\(PrintableText.quoted(String(nodeKey.prefix(80))))\"]")
                    if node.nodeID.isEmpty { node.nodeID = nodeKey }
                    peers.append(node)
                }
            case "User":
                let kind = try json.peekKind()
                if kind == .null { try json.skipValue(); return }
                guard kind == .object else { throw JSONShapeError(path: "User", expected: "an object", found: kind) }
                try json.readObject { id in
                    let login = try readUserLogin(json, path: "User[\"\(PrintableText.quoted(String(id.prefix(40))))\"]")
                    if let n = Int64(id), let login { users[n] = login }
                }
            case "devices":
                let kind = try json.peekKind()
                guard kind == .array else { try json.skipValue(); return }
                sawDevices = true
                var index = 0
                try json.readArray {
                    var external = false
                    let device = try readDevice(json, path: "devices[\(index)]", external: &external)
                    if !external { deviceDomains.add(device.dnsName) }
                    devices.append(device)
                    index += 1
                }
            default:
                try json.skipValue()
            }
        }
        try json.expectEnd()

        if sawSelf || (sawPeer && backendState != nil) {
            if let state = backendState, state != "Running", state != "Starting", peers.isEmpty {
                throw TailscaleInputError.notRunning(state)
            }
            var nodes: [TailscaleNode] = []
            nodes.reserveCapacity(peers.count + 1)
            if let selfNode { nodes.append(selfNode) }
            nodes.append(contentsOf: peers)
            for i in nodes.indices {
                // A tagged node's owner is the `tagged-devices` pseudo-user: its tags say
                // who it belongs to (docs/formats.md, "tailscale status --json").
                if let id = nodes[i].ownerUserID, let login = users[id], login != "tagged-devices" { nodes[i].owner = login }
            }
            // `CurrentTailnet.MagicDNSSuffix`, else its legacy copy at the top, else (before
            // either existed) Self's name less its first label (docs/formats.md).
            let selfDomain = selfNode.map { DeviceDomains.domain($0.dnsName) }
            let suffix = [currentSuffix, legacySuffix, selfDomain].lazy.compactMap { $0 }.first { !$0.isEmpty }
            return TailscaleDocument(format: .status, backendState: backendState, nodes: nodes,
                                     tailnet: TailscaleTailnet(magicDNSSuffix: suffix))
        }
        if sawDevices {
            return TailscaleDocument(format: .devices, backendState: nil, nodes: devices,
                                     tailnet: TailscaleTailnet(magicDNSSuffix: deviceDomains.agreed))
        }
        throw TailscaleInputError.notTailscale
    }

    // MARK: Status: PeerStatus (ipnstate.PeerStatus)

    private static func readPeer(_ json: JSONStreamReader, path: String) throws -> TailscaleNode {
        let kind = try json.peekKind()
        guard kind == .object else { throw JSONShapeError(path: path, expected: "an object", found: kind) }
        var node = TailscaleNode()
        var publicKey = ""
        var userID: Int64?
        var altSharer: Int64?
        var tailAddr: String?
        var sharee = false
        var exitNodeOption = false
        try json.readObject { key in
            switch key {
            case "ID": node.nodeID = try json.readOptionalString(path: "\(path).ID") ?? ""
            case "PublicKey": publicKey = try json.readOptionalString(path: "\(path).PublicKey") ?? ""
            case "HostName": node.hostName = PrintableText.clean(try json.readOptionalString(path: "\(path).HostName") ?? "")
            case "DNSName":
                var name = try json.readOptionalString(path: "\(path).DNSName") ?? ""
                while name.hasSuffix(".") { name.removeLast() }
                node.dnsName = name
            case "OS": node.os = PrintableText.clean(try json.readOptionalString(path: "\(path).OS") ?? "")
            case "UserID": userID = try json.readOptionalInt(path: "\(path).UserID")
            case "AltSharerUserID": altSharer = try json.readOptionalInt(path: "\(path).AltSharerUserID")
            case "TailscaleIPs": node.addresses = try json.readStringArray(path: "\(path).TailscaleIPs")
            case "TailAddr": tailAddr = try json.readOptionalString(path: "\(path).TailAddr")
            case "Tags": node.tags = validTags(try json.readStringArray(path: "\(path).Tags"))
            case "Online": node.online = try json.readOptionalBool(path: "\(path).Online")
            case "LastSeen": node.lastSeen = timestamp(try json.readOptionalString(path: "\(path).LastSeen"))
            case "sshHostKeys": node.sshHostKeys = try json.readStringArray(path: "\(path).sshHostKeys")
            case "ShareeNode": sharee = try json.readOptionalBool(path: "\(path).ShareeNode") ?? false
            case "ExitNodeOption": exitNodeOption = try json.readOptionalBool(path: "\(path).ExitNodeOption") ?? false
            default: try json.skipValue()
            }
        }
        if node.nodeID.isEmpty { node.nodeID = publicKey }
        if node.addresses.isEmpty, let tailAddr, !tailAddr.isEmpty { node.addresses = [tailAddr] }
        if node.online == true { node.lastSeen = nil }
        let owner = (altSharer ?? 0) != 0 ? altSharer : userID
        node.ownerUserID = owner
        if sharee {
            node.exclusion = .sharedIn
        } else if exitNodeOption, node.dnsName.lowercased().hasSuffix(".mullvad.ts.net") {
            node.exclusion = .exitNode
        }
        return node
    }

    /// `CurrentTailnet.MagicDNSSuffix` (the object may be null).
    private static func readTailnetSuffix(_ json: JSONStreamReader) throws -> String? {
        let kind = try json.peekKind()
        guard kind == .object else { try json.skipValue(); return nil }
        var suffix: String?
        try json.readObject { key in
            if key == "MagicDNSSuffix" {
                suffix = try json.readOptionalString(path: "CurrentTailnet.MagicDNSSuffix")
            } else {
                try json.skipValue()
            }
        }
        return suffix
    }

    /// The domain (name less its first label) of each device name seen, and whether they
    /// all had the same one.
    private struct DeviceDomains {
        private var first: String?
        private var disagree = false

        mutating func add(_ dnsName: String) {
            let domain = Self.domain(dnsName).lowercased()
            guard !domain.isEmpty, !disagree else { return }
            if first == nil { first = domain } else if first != domain { disagree = true }
        }

        var agreed: String? { disagree ? nil : first }

        static func domain(_ dnsName: String) -> String {
            guard let dot = dnsName.firstIndex(of: ".") else { return "" }
            return String(dnsName[dnsName.index(after: dot)...])
        }
    }

    private static func readUserLogin(_ json: JSONStreamReader, path: String) throws -> String? {
        let kind = try json.peekKind()
        guard kind == .object else { try json.skipValue(); return nil }
        var login: String?
        try json.readObject { key in
            if key == "LoginName" {
                login = try json.readOptionalString(path: "\(path).LoginName").map(PrintableText.clean)
            } else {
                try json.skipValue()
            }
        }
        return login
    }

    // MARK: API v2: one device (GET /api/v2/tailnet/{tailnet}/devices)

    /// One device; `external` is set for a device shared in from another tailnet.
    private static func readDevice(_ json: JSONStreamReader, path: String, external: inout Bool) throws -> TailscaleNode {
        let kind = try json.peekKind()
        guard kind == .object else { throw JSONShapeError(path: path, expected: "an object", found: kind) }
        var node = TailscaleNode()
        var legacyID = ""
        var authorized = true
        var blocks = false
        try json.readObject { key in
            switch key {
            case "nodeId": node.nodeID = try json.readOptionalString(path: "\(path).nodeId") ?? ""
            case "id": legacyID = try json.readOptionalString(path: "\(path).id") ?? ""
            case "name":
                var name = try json.readOptionalString(path: "\(path).name") ?? ""
                while name.hasSuffix(".") { name.removeLast() }
                node.dnsName = name
            case "hostname": node.hostName = PrintableText.clean(try json.readOptionalString(path: "\(path).hostname") ?? "")
            case "os": node.os = PrintableText.clean(try json.readOptionalString(path: "\(path).os") ?? "")
            case "addresses": node.addresses = try json.readStringArray(path: "\(path).addresses")
            case "tags": node.tags = validTags(try json.readStringArray(path: "\(path).tags"))
            case "user": node.owner = try json.readOptionalString(path: "\(path).user").map(PrintableText.clean)
            case "connectedToControl": node.online = try json.readOptionalBool(path: "\(path).connectedToControl")
            case "lastSeen": node.lastSeen = timestamp(try json.readOptionalString(path: "\(path).lastSeen"))
            case "authorized": authorized = try json.readOptionalBool(path: "\(path).authorized") ?? true
            case "isExternal": external = try json.readOptionalBool(path: "\(path).isExternal") ?? false
            case "blocksIncomingConnections":
                blocks = try json.readOptionalBool(path: "\(path).blocksIncomingConnections") ?? false
            default: try json.skipValue()
            }
        }
        if node.nodeID.isEmpty { node.nodeID = legacyID }
        if node.online == true { node.lastSeen = nil }
        // For a tagged device `user` is whoever registered it, not an owner: the tags are.
        if !node.tags.isEmpty { node.owner = nil }
        if !authorized {
            node.exclusion = .notAuthorized
        } else if blocks {
            node.exclusion = .blocksIncoming
        }
        return node
    }

    /// An RFC 3339 time as given, or nil for "", the Go zero time (docs/formats.md,
    /// "Timestamps") and anything that is not made of the characters such a time has.
    static func timestamp(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= 40, !text.hasPrefix("0001-01-01") else { return nil }
        let allowed = text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || b == 0x2d || b == 0x3a || b == 0x2e || b == 0x2b || b == 0x54 || b == 0x5a
        }
        return allowed ? text : nil
    }

    /// Tailscale tags are `tag:` and a name (tailcfg.CheckTag); one that is not, or that
    /// holds a byte outside the tag alphabet (letters, digits, `.`, `_`, `-`, `:`; at most 64
    /// bytes), is dropped rather than kept, so no document carries a tag with spaces or
    /// control characters. HostStore's HostValidation.tag stays the authority on what is
    /// stored: TailscaleImportPlanner filters with it again.
    public static func validTags(_ tags: [String]) -> [String] {
        tags.filter { tag in
            let u = tag.utf8
            return tag.hasPrefix("tag:") && (5...64).contains(u.count) && u.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7a)
                    || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ":")
            }
        }
    }
}
