// Why a key store operation was refused: `HostStoreError`s of the key kinds (exit 5),
// with the words the user sees (a fix that is a hostbook command is a `Remedy`, worded by
// the executable). Callers branch on `kind`.

extension HostStoreError {
    /// A key with this name (compared case-insensitively) exists.
    public static func keyNameTaken(_ name: String) -> HostStoreError {
        HostStoreError(.keyNameTaken, "a key named '\(name)' already exists",
                       hint: "Choose another name with --name, or remove the existing key first.")
    }

    /// The same key (same SHA-256 fingerprint) is stored under `existingName`.
    public static func keyAlreadyStored(existingName: String, fingerprint: String) -> HostStoreError {
        HostStoreError(.keyAlreadyStored, "this key is already stored as '\(existingName)' (\(fingerprint))",
                       remedy: .showKey(name: existingName))
    }

    /// Hosts still point at the key (hosts.key_id).
    public static func keyInUse(name: String, hosts: [String]) -> HostStoreError {
        let which = hosts.map { "'\($0)'" }.joined(separator: ", ")
        return HostStoreError(.keyInUse, "key '\(name)' is used by \(hosts.count == 1 ? "host" : "hosts") \(which)",
                              remedy: .repointHosts(hosts))
    }
}
