// Which Secret Service the test run's session has: GNOME Keyring (scripts/with-keyring) or
// KeePassXC (scripts/with-keepassxc, which sets HOSTBOOK_TEST_BACKEND=keepassxc). Read only for
// what legitimately differs between them (names), never to skip a test.
import Foundation

enum TestBackend: String {
    case gnomeKeyring = "gnome-keyring"
    case keepassxc

    static var current: TestBackend {
        ProcessInfo.processInfo.environment["HOSTBOOK_TEST_BACKEND"].flatMap(TestBackend.init(rawValue:)) ?? .gnomeKeyring
    }

    /// What `vault status` names as the service.
    var service: String {
        switch self {
        case .gnomeKeyring: "gnome-keyring-daemon"
        case .keepassxc: "keepassxc"
        }
    }

    /// The default collection's name (its object path) and label in the script's session.
    var collection: (name: String, label: String) {
        switch self {
        case .gnomeKeyring: ("login", "Login")
        case .keepassxc: ("secrets", "hostbook test")   // secrets.kdbx, DatabaseName "hostbook test"
        }
    }
}
