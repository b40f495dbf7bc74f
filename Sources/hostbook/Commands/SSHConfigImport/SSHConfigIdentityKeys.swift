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
        guard var bytes = try? KeyFiles.read(path) else { return (nil, "the file cannot be read") }
        defer { Sodium.wipe(&bytes) }
        if let content = try? PublicKeyFile.parse(bytes) {
            return (content.publicKey.sha256Fingerprint, nil)
        }
        guard PrivateKeyFile.detect(bytes) != nil else { return (nil, "not a key file hostbook can read") }
        if PrivateKeyFile.isEncrypted(bytes) == true {
            return (nil, "the key is encrypted and has no .pub file beside it; import it with 'hostbook keys import \(path)' and import the config again")
        }
        guard let key = try? PrivateKeyFile.parse(bytes, passphrase: nil) else { return (nil, "the key file is damaged") }
        return (key.key.publicKey.sha256Fingerprint, nil)
    }
}
