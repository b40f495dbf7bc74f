// Which bundles this database follows and where from (the git side is the program's).

/// A subscribed bundle: its name and the git URL or path it is pulled from.
public struct BundleSubscription: Sendable, Equatable {
    public let name: String
    public let url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

extension BundleStore {
    /// Records (or changes) where bundle `bundle` comes from.
    public func subscribe(bundle: String, url: String) throws {
        try Self.requireName(bundle)
        if let bad = TextRules.firstForbiddenScalar(in: url) {
            throw HostStoreError.rejected("the bundle's URL contains \(bad.description)")
        }
        guard !url.isEmpty else { throw HostStoreError.rejected("the bundle's URL is empty") }
        try database.write {
            _ = try connection.run("INSERT OR REPLACE INTO bundle_subscriptions (bundle, url) VALUES (?, ?)", [.text(bundle), .text(url)])
        }
    }

    /// Forgets the subscription; true when there was one.
    @discardableResult
    public func unsubscribe(bundle: String) throws -> Bool {
        try database.write { try connection.run("DELETE FROM bundle_subscriptions WHERE bundle = ?", [.text(bundle)]) > 0 }
    }

    /// Every subscription, by name.
    public func subscriptions() throws -> [BundleSubscription] {
        try database.read {
            try connection.query("SELECT bundle, url FROM bundle_subscriptions ORDER BY bundle").compactMap { row in
                guard let name = row.text(0), let url = row.text(1) else { return nil }
                return BundleSubscription(name: name, url: url)
            }
        }
    }
}
