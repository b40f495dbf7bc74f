// A write across the database and the vault (Credentials' CredentialStore) that failed, as
// the user sees it: what was being done at that step, the store's own message, and what to
// do (a leftover item is for `hostbook doctor`). Exit 1, or the underlying error's own code.
import Credentials
import HostStore
import Vault

extension CredentialStoreError: UserFacingError {
    var exitCode: ExitCode { presented.exitCode }
    var message: String { presented.message }
    var hint: String? { presented.hint }

    private var presented: any UserFacingError {
        let vault = underlying as? VaultError
        let detail = vault?.message ?? "\(underlying)"
        func database(_ doing: String) -> any UserFacingError {
            if let e = underlying as? HostStoreError { return HostStoreErrorPresentation.cliError(e, doing: doing) }
            return underlying as? any UserFacingError ?? CLIError.failure("\(doing): \(detail)")
        }
        let leftover = "Run 'hostbook doctor' when the vault is available; it lists the leftover item."
        switch step {
        case .checkKey:
            return database("cannot read the keys")
        case .storeKeyItem:
            return CLIError.failure("cannot store the private key in the vault: \(detail)", hint: vault?.hint)
        case .saveKeyRow:
            return database("cannot save the key in the database (nothing was stored)")
        case .removeKeyRow(let name):
            return database("cannot remove key '\(name)'")
        case .deleteKeyItem(let key):
            return CLIError.failure("removed key '\(key.name)' from the database, but its private key could not be deleted from the vault: \(detail)",
                                    hint: "Run 'hostbook doctor' to find and remove the leftover vault item.")
        case .storePasswordItem:
            return CLIError.failure("cannot store the password in the vault: \(detail)",
                                    hint: vault?.hint ?? "Run 'hostbook vault status' to see what is wrong.")
        case .deleteOldPassword(let host):
            return CLIError.failure("updated host '\(host.name)', but could not delete its old password from the vault: \(detail)", hint: leftover)
        case .deletePassword(let host):
            return CLIError.failure("removed host '\(host.name)', but could not delete its password from the vault: \(detail)", hint: leftover)
        case .deleteBundlePasswords(let bundle, let hosts):
            return CLIError.failure("applied bundle '\(bundle)', which removed \(hosts.map { "'\($0)'" }.joined(separator: ", ")), but could not delete their passwords from the vault: \(detail)",
                                    hint: leftover)
        }
    }
}
