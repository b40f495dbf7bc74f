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
        throw HostStoreError(.failed, "bundle subscriptions: not written yet")
    }

    /// Forgets the subscription; true when there was one.
    @discardableResult
    public func unsubscribe(bundle: String) throws -> Bool {
        throw HostStoreError(.failed, "bundle subscriptions: not written yet")
    }

    /// Every subscription, by name.
    public func subscriptions() throws -> [BundleSubscription] {
        throw HostStoreError(.failed, "bundle subscriptions: not written yet")
    }
}
