// Which program answers as the Secret Service, so messages can name it and give its own
// fix. Found from the bus: the executable of the process that owns org.freedesktop.secrets.

public enum SecretServiceProgram: Sendable, Equatable {
    case gnomeKeyring
    case keepassxc
    case kwallet
    /// Another program, by its executable's name.
    case other(String)

    init(executable: String) {
        switch executable {
        case "gnome-keyring-daemon": self = .gnomeKeyring
        case "keepassxc": self = .keepassxc
        case let name where name.hasPrefix("kwalletd") || name == "ksecretd": self = .kwallet
        default: self = .other(executable)
        }
    }

    /// The name `hostbook vault status` shows and messages use: the program's own.
    public var name: String {
        switch self {
        case .gnomeKeyring: "gnome-keyring-daemon"
        case .keepassxc: "keepassxc"
        case .kwallet: "kwalletd"
        case .other(let name): name
        }
    }
}
