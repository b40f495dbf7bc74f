// What the known-hosts workflows ask the user: trust a new key, replace a changed one. The
// program asks on the terminal (KnownHostsPrompt); a test answers in-process.
import HostStore
import KeyFormats

public protocol HostKeyQuestions {
    /// Whether to trust `key`, new for `lookup`; `otherNames` already trust it.
    func approve(_ lookup: HostLookupName, key: PublicKey, otherNames: [String]) throws -> Bool
    /// Whether to replace the `stored` entries of `lookup` with the changed `key`.
    func replace(_ lookup: HostLookupName, key: PublicKey, stored: [KnownHostRow]) throws -> Bool
}
