// How a refused certificate is worded (exit 5): what is wrong, and what to do.
import HostStore
import Workflows

extension KeyCertificateRefusal {
    func cliError(file: String, key: String, fingerprint: String) -> CLIError {
        switch self {
        case .certifiesAnotherKey(let certified, _):
            CLIError.rejected("'\(file)' certifies the key \(certified), not key '\(key)' (\(fingerprint))",
                              hint: "Attach it to the key it certifies ('hostbook keys list' shows the fingerprints), or have your CA sign key '\(key)'; nothing was attached.")
        case .badSignature:
            CLIError.rejected("the certificate in '\(file)' does not verify: its CA signature does not match its contents",
                              hint: "Get the certificate from your CA again; nothing was attached.")
        }
    }
}
