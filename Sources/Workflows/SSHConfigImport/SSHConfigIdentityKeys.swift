// The public half of an IdentityFile, for linking it to an imported hostbook key: read
// from `PATH.pub` as ssh-keygen writes it, or derived from the private key when that is
// not encrypted (the private bytes are wiped once parsed). An encrypted key without a
// .pub file is reported, with the remedy of importing it first: hostbook asks for no
// passphrase during an import. Both files are
// opened only if they are regular files (RegularFile): a FIFO named as an IdentityFile
// would otherwise hold the import for ever.
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import KeyFormats
import System
import SecureMemory

public enum SSHConfigIdentityKeys {
    /// An IdentityFile's public key's fingerprint, or why it could not be read (and the
    /// fix that is a hostbook command, when there is one).
    public struct PublicHalf: Equatable {
        public var fingerprint: String?
        public var problem: String?
        public var remedy: ImportNote.Remedy?

        init(_ fingerprint: String?, _ problem: String?, remedy: ImportNote.Remedy? = nil) {
            self.fingerprint = fingerprint
            self.problem = problem
            self.remedy = remedy
        }
    }

    /// `publicHalf` once per path for one import.
    final class Cache {
        private var halves: [String: PublicHalf] = [:]

        func publicHalf(_ path: String) -> PublicHalf {
            if let cached = halves[path] { return cached }
            let result = SSHConfigIdentityKeys.publicHalf(path)
            halves[path] = result
            return result
        }
    }

    /// The local user's name and this machine's name (for `%u`, `%l`, Match localuser).
    static var localUser: String { UserAccount.name(uid: getuid()) ?? String(getuid()) }

    static var localHostName: String {
        var buf = [UInt8](repeating: 0, count: 256)
        let ok = buf.withUnsafeMutableBytes { gethostname($0.baseAddress!.assumingMemoryBound(to: CChar.self), 255) } == 0
        guard ok else { return "localhost" }
        return String(decoding: buf.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Largest .pub file read (an RSA key of 16384 bits is about 3 KiB as a line).
    public static let maxPublicSize = 1 << 20

    public static func publicHalf(_ path: String) -> PublicHalf {
        switch readPublicFile(path + ".pub") {
        case .success(let bytes):
            if let content = try? PublicKeyFile.parse(bytes) { return PublicHalf(content.publicKey.sha256Fingerprint, nil) }
        case .failure(.notRegular(let mode)):
            return PublicHalf(nil, "\(path).pub is \(RegularFile.kind(mode)), not a regular file; not read")
        case .failure(.system):
            break
        }
        guard access(path, F_OK) == 0 else { return PublicHalf(nil, "the file does not exist") }
        let fd: Int32
        do { fd = try RegularFile.open(path).fd } catch {
            if case .notRegular(let mode) = error { return PublicHalf(nil, "it is \(RegularFile.kind(mode)), not a regular file; not read") }
            return PublicHalf(nil, "the file cannot be read")
        }
        defer { close(fd) }
        guard let file = try? KeyFiles.read(fd: fd, path: path) else { return PublicHalf(nil, "the file cannot be read") }
        let kind = PrivateKeyFile.detect(file)
        let encrypted = kind == nil ? nil : PrivateKeyFile.isEncrypted(file)
        // Not a private key hostbook reads (a public key, perhaps in PEM): only then is the
        // file copied out of secure memory to be read as text, and the copy wiped at once.
        if kind == nil || encrypted == nil {
            var bytes = file.withUnsafeBytes { Array($0) }
            let content = try? PublicKeyFile.parse(bytes)
            Sodium.wipe(&bytes)
            if let content { return PublicHalf(content.publicKey.sha256Fingerprint, nil) }
        }
        guard kind != nil else { return PublicHalf(nil, "not a key file hostbook can read") }
        if encrypted == true {
            return PublicHalf(nil, "the key is encrypted and has no .pub file beside it", remedy: .importKeyThenImportAgain(path: path))
        }
        guard let key = try? PrivateKeyFile.parse(file, passphrase: nil) else { return PublicHalf(nil, "the key file is damaged") }
        return PublicHalf(key.key.publicKey.sha256Fingerprint, nil)
    }

    /// A .pub file's bytes, when it is a regular file of at most `maxPublicSize` bytes.
    public static func readPublicFile(_ path: String) -> Result<[UInt8], RegularFile.Refusal> {
        let fd: Int32
        do { fd = try RegularFile.open(path).fd } catch { return .failure(error) }
        defer { close(fd) }
        do { return .success(try FileDescriptor(fd).readToEnd(limit: maxPublicSize)) } catch {
            switch error {
            case .system(let why): return .failure(.system(why.description))
            case .tooLong: return .failure(.system("it is larger than \(maxPublicSize >> 20) MiB"))
            }
        }
    }
}
