// Tokens' errors in words: one line naming the module or token and what to do.
import Tokens
import Workflows

extension TokenError {
    func cliError() -> CLIError {
        switch self {
        case .moduleNotAllowed(let path):
            return .rejected("the PKCS#11 module \(path.escapedForTerminal) is not an absolute path under /usr/lib or /usr/local/lib",
                             hint: "Give the module's absolute path, or name it with --allow-module PATH if you trust it.")
        case .moduleNotLoaded(let path, let reason):
            return .failure("cannot load the PKCS#11 module \(path.escapedForTerminal): \(reason.escapedForTerminal)",
                            hint: "Check the path (e.g. /usr/lib/x86_64-linux-gnu/opensc-pkcs11.so or libykcs11.so).")
        case .call(let operation, let code):
            return .failure("the PKCS#11 module failed in \(operation) (CKR 0x\(String(code, radix: 16)))",
                            hint: "Check that the token is plugged in, then try again.")
        case .noToken(let slot, let label):
            let which = slot.map { " in slot \($0)" } ?? label.map { " labelled '\($0.escapedForTerminal)'" } ?? ""
            return .notFound("no initialised token\(which)", hint: "Plug the token in; list what the module sees with 'pkcs11-tool --module MODULE -L'.")
        case .severalTokens(let labels):
            return .usage("the module sees several tokens (\(labels.map { "'\($0.escapedForTerminal)'" }.joined(separator: ", ")))",
                          hint: "Choose one with --slot N or --label L.")
        case .wrongPIN:
            return CLIError(.wrongPassphrase, "the token refused the PIN", hint: "Nothing was stored; try again with the token's user PIN.")
        case .pinRequired:
            return .inputNeeded("the token needs its PIN and nobody could be asked for it",
                                hint: "Give it with --pin-stdin, or run the command on a terminal.")
        case .pinLocked:
            return .failure("the token's PIN is locked", hint: "Unblock it with the token's PUK or SO PIN (e.g. pkcs11-tool --unlock-pin).")
        case .keyNotFound:
            return .notFound("the token no longer holds this key", hint: "Import the token's keys again with 'hostbook keys import-token'.")
        case .malformed(let what):
            return .failure("the PKCS#11 module answered \(what.escapedForTerminal)", hint: nil)
        case .unsupportedKey(let what):
            return .rejected("the token's key is \(what.escapedForTerminal), which ssh cannot use", hint: nil)
        case .unsupportedAlgorithm(let what):
            return .rejected("the token's key cannot make \(what.escapedForTerminal) signatures", hint: nil)
        }
    }
}
