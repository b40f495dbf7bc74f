// SecurityKeys' errors in words: one line naming the key and what to do.
import SecurityKeys
import Workflows

extension SecurityKeyError {
    /// The message and hint for an operation on the key named `key` (nil: a new key, or
    /// the device's resident keys).
    func words(key: String?) -> (message: String, hint: String?) {
        let subject = key.map { "the security key of '\($0.escapedForTerminal)'" } ?? "the security key"
        switch self {
        case .deviceNotFound:
            return ("no security key answered for \(key.map { "'\($0.escapedForTerminal)'" } ?? "this request")",
                    "Plug in the authenticator that holds it (and touch it when it blinks), then try again.")
        case .pinRequired:
            return ("\(subject) needs its PIN",
                    "Run the command on a terminal, where hostbook asks for the PIN.")
        case .unsupported(let operation):
            return ("the security-key provider cannot \(operation)",
                    "Use another provider (SSH_SK_PROVIDER), or OpenSSH's built-in one by leaving it unset.")
        case .credentialExists:
            return ("the authenticator already holds a resident key for this application and user",
                    "Give another --application ssh:NAME, or load the existing one with 'hostbook keys import-resident'.")
        case .providerNotLoaded(let path, let reason):
            return ("cannot load the security-key provider \(path.escapedForTerminal): \(reason.escapedForTerminal)",
                    "Set SSH_SK_PROVIDER to a FIDO middleware library, or unset it for OpenSSH's built-in USB support.")
        case .providerVersion(let path, let found, let expected):
            return ("the security-key provider \(path.escapedForTerminal) speaks interface version \(String(found, radix: 16)), not \(String(expected, radix: 16))",
                    "Use a provider built for OpenSSH 9.x.")
        case .helperMissing(let paths):
            return ("OpenSSH's ssh-sk-helper is not installed (looked for \(paths.joined(separator: ", ")))",
                    "Install openssh-client, or set SSH_SK_PROVIDER to a FIDO middleware library.")
        case .helperFailed(let status, let detail):
            let why = detail.isEmpty ? "" : ": \(detail.escapedForTerminal)"
            return ("ssh-sk-helper failed for \(subject) (\(status))\(why)",
                    "Check that the authenticator is plugged in and was touched in time.")
        case .failed(let operation, let code):
            return ("\(subject) refused to \(operation) (provider error \(code))",
                    "Touch the authenticator when it blinks, and check it is the one that holds the key.")
        case .malformedResponse(let what):
            return ("the security-key provider answered \(what.escapedForTerminal) for \(subject)", nil)
        case .notSecurityKey:
            return ("'\((key ?? "").escapedForTerminal)' is not a security-key (sk-*) key", nil)
        }
    }

    /// Exit 3 for a PIN that could not be asked (no terminal), else 1.
    func cliError(key: String?) -> CLIError {
        let (message, hint) = words(key: key)
        return self == .pinRequired ? CLIError(.inputNeeded, message, hint: hint) : CLIError.failure(message, hint: hint)
    }
}
