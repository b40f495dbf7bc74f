// git's allowed signers file, made from the inventory (`hostbook keys allowed-signers`,
// written by `hostbook git setup` and rewritten after every command that changes keys):
// `$XDG_CONFIG_HOME/hostbook/allowed_signers` (default ~/.config), which git reads through
// gpg.ssh.allowedSignersFile to verify commits (`ssh-keygen -Y find-principals` / `-Y verify`).
// One line per key set up for git (GitSigningKeys):
//     EMAIL namespaces="git" TYPE BASE64 KEY-NAME
// the format of ssh-keygen(1) "ALLOWED SIGNERS" (sshsig.c parse_principals_key_and_options
// reads principals, options, the key, and ignores what follows the key: the key's name).
// Lines are sorted by their bytes and hold nothing of the machine, so the same inventory
// gives the same bytes anywhere.
#if canImport(Glibc)
import Glibc
#endif
public import HostStore
import KeyFormats
import System

public enum AllowedSigners {
    /// The file's path for this user.
    public static func path(home: String, environment: [String: String]) -> String {
        SSHConfigInstallation(home: home, environment: environment).folder + "/allowed_signers"
    }

    /// The file's bytes for `keys`.
    public static func render(_ keys: [GitSigningKey]) -> [UInt8] {
        let lines = keys.compactMap { entry -> [UInt8]? in
            guard let key = try? entry.key.publicKey else { return nil }
            return Array("\(entry.email) namespaces=\"git\" \(key.line(comment: "")) \(entry.key.name)\n".utf8)
        }
        return lines.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }
    }

    /// The file's bytes for `database` (the caller's workspace's; none yet: empty).
    public static func render(database: HostDatabase?) throws -> [UInt8] {
        guard let database else { return [] }
        return render(try GitSigningKeys(database: database).all())
    }

    /// Writes `bytes` to `path` whole or not at all (a symbolic link is written through, so
    /// it stays a link), creating its folder 0700; the file is 0644, public keys only.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let folder = ParentFolder.of(path)
        try makeFolder(folder)
        do {
            let target = try AtomicFile.linkTarget(of: path) ?? path
            try AtomicFile.write(target, bytes: bytes, mode: 0o644, replace: true)
        } catch {
            let why: String
            switch error {
            case .io(let text): why = text
            case .exists: why = "it exists"
            }
            throw SessionRefusal.allowedSignersNotWritten(path: path, reason: why)
        }
    }

    /// Rewrites the file at `path` from the database when it exists and its bytes differ
    /// (after a key was renamed, removed or set up); true when it wrote.
    @discardableResult
    public static func refreshIfPresent(_ path: String, database: HostDatabase?) throws -> Bool {
        guard AtomicFile.exists(path) else { return false }
        let bytes = try render(database: database)
        if current(path) == bytes { return false }
        try write(bytes, to: path)
        return true
    }

    /// The file's bytes now, or nil when it cannot be read as a regular file.
    static func current(_ path: String) -> [UInt8]? {
        guard let (fd, _) = try? RegularFile.open(path) else { return nil }
        defer { close(fd) }
        return try? FileDescriptor(fd).readToEnd(limit: 16 << 20)
    }

    private static func makeFolder(_ path: String) throws {
        do {
            try PrivateFolder.make(path)
        } catch {
            throw SessionRefusal.folderNotCreated(path: error.path, reason: "\(error.errno)")
        }
    }
}
