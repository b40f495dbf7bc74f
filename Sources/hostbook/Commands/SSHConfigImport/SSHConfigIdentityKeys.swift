// The public half of an IdentityFile, for linking it to an imported hostbook key: read
// from `PATH.pub` as ssh-keygen writes it, or derived from the private key when that is
// not encrypted (the private bytes are wiped once parsed). An encrypted key without a
// .pub file is reported: hostbook asks for no passphrase during an import.
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import SecureMemory

enum SSHConfigIdentityKeys {
    static func publicHalf(_ path: String) -> (fingerprint: String?, problem: String?) {
        if let bytes = try? FileBytes.read(path + ".pub"), let content = try? PublicKeyFile.parse(bytes) {
            return (content.publicKey.sha256Fingerprint, nil)
        }
        guard access(path, F_OK) == 0 else { return (nil, "the file does not exist") }
        guard let file = try? KeyFiles.read(path) else { return (nil, "the file cannot be read") }
        let kind = PrivateKeyFile.detect(file)
        let encrypted = kind == nil ? nil : PrivateKeyFile.isEncrypted(file)
        // Not a private key hostbook reads (a public key, perhaps in PEM): only then is the
        // file copied out of secure memory to be read as text, and the copy wiped at once.
        if kind == nil || encrypted == nil {
            var bytes = file.withUnsafeBytes { Array($0) }
            let content = try? PublicKeyFile.parse(bytes)
            Sodium.wipe(&bytes)
            if let content { return (content.publicKey.sha256Fingerprint, nil) }
        }
        guard kind != nil else { return (nil, "not a key file hostbook can read") }
        if encrypted == true {
            return (nil, "the key is encrypted and has no .pub file beside it; import it with 'hostbook keys import \(path)' and import the config again")
        }
        guard let key = try? PrivateKeyFile.parse(file, passphrase: nil) else { return (nil, "the key file is damaged") }
        return (key.key.publicKey.sha256Fingerprint, nil)
    }
}
