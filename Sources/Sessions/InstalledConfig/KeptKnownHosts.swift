// The known_hosts files of the installed ssh configuration (docs/known-hosts.md, "Rotation
// through plain ssh"): host-key rotation for plain ssh, scp and git, which run no hostbook
// process after the connection. The installed configuration gives each host, as
// UserKnownHostsFile with `UpdateHostKeys yes`, a file of its own in `known_hosts/` beside the installed
// configuration, one per lookup name (`[host]:port`).
// hostbook keeps each file equal to what the rotation rules give ssh for the name
// (HostKeyRotation.start: the plain entries the store trusts for exactly that name, each in
// its own form), and removes it when the rules say not to learn: ssh then finds the key
// through KnownHostsCommand alone and turns UpdateHostKeys off itself (sshconnect.c: "host
// key found via KnownHostsCommand; disabling UpdateHostkeys"), so a first use, a changed or
// a revoked key still reach hostbook's prompt and messages.
//
// ssh edits a file after a login (it adds the keys the server proved and removes those it
// no longer offers); hostbook takes those edits into the store (`reconcile`) at the next
// KnownHostsCommand for the name (ssh runs it, phase ORDER, before it reads the file for
// the key check) and around any other command. Those edits come from another process of
// the user, so they are read as hostile input: a regular file of the user, writable by no
// one else, at most `maxFileSize` bytes and `maxKeys` keys, parsed line by line (a line
// that does not parse is no key), and taken only when hostbook's own copy of what it wrote
// (`known_hosts.base/`, which no configuration names) still equals the store: otherwise the
// store changed meanwhile and wins. What is taken is decided again by
// KnownHostsStore.learnRotation under the same rules as a `hostbook ssh` session.
//
// A name of lower-case letters, digits, `.` and `-` has its file named `HOST_PORT`, which the
// installed configuration names for all such hosts with one line of ssh's tokens
// (`known_hosts/%h_%p`); any other name's file is named by the SHA-256 of the name, in a line
// of the host's own block.
public import HostStore
public import KeyFormats
import System
#if canImport(Glibc)
import Glibc
#endif

public struct KeptKnownHosts: Sendable {
    /// The files ssh reads and edits, one per lookup name.
    public let folder: String
    /// hostbook's copy of what it last wrote into each file: the lookup's host, port and
    /// the database it was written from on the first three lines, then the file's text.
    public let baseFolder: String
    /// The absolute path of the database the files are kept for (the one the installed
    /// configuration's KnownHostsCommand names): a command run on another database leaves
    /// them alone.
    public let database: String
    /// A file larger than this is not read (a host's keys are a few lines).
    public static let maxFileSize = 64 << 10
    /// A file holding more keys for the name than this is not taken.
    public static let maxKeys = 32

    public init(installation: SSHConfigInstallation, database: String = "") {
        folder = installation.folder + "/known_hosts"
        baseFolder = installation.folder + "/known_hosts.base"
        self.database = database
    }

    /// The same files, kept for the database at `path` (absolute).
    public func keptFor(database path: String) -> KeptKnownHosts {
        KeptKnownHosts(folder: folder, baseFolder: baseFolder, database: path)
    }

    private init(folder: String, baseFolder: String, database: String) {
        self.folder = folder
        self.baseFolder = baseFolder
        self.database = database
    }

    /// The file name of every name `namedByTokens` takes, in ssh's tokens (the lower-cased
    /// host name and the port: ssh expands them in UserKnownHostsFile): the installed
    /// configuration names all those files with one line.
    public static let tokens = "%h_%p"

    /// Whether `lookup`'s file is named `HOST_PORT`, as ssh expands `tokens` for it: a host
    /// name of lower-case letters, digits, `.` and `-` only (ssh and HostLookupName both
    /// lower-case it), at most 200 bytes. Any other name (an IPv6 address, a name with `/`,
    /// `%` or anything else a file name or ssh's expansion would change) is named by its
    /// SHA-256 and has a line of its own.
    public static func namedByTokens(_ lookup: HostLookupName) -> Bool {
        !lookup.host.isEmpty && lookup.host.utf8.count <= 200
            && lookup.host.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// The file name for `lookup`: `HOST_PORT` (`namedByTokens`), else the SHA-256 of its
    /// text in hex (any host name, bounded). The two never meet: a `_` is in the first only.
    public static func fileName(_ lookup: HostLookupName) -> String {
        namedByTokens(lookup) ? lookup.host + "_" + String(lookup.port) : hashedFileName(lookup)
    }

    /// The SHA-256 of `lookup`'s text in hex: every file's name before names were held to
    /// `tokens` (an installed file written then still names it).
    public static func hashedFileName(_ lookup: HostLookupName) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in Digest.sha256(Array(lookup.text.utf8)) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The file ssh is given for `lookup` (it exists only while the rules let ssh learn).
    public func path(for lookup: HostLookupName) -> String { folder + "/" + Self.fileName(lookup) }

    /// What reconciling a name did.
    public struct Reconciled: Sendable {
        public let lookup: HostLookupName
        /// What the store took from ssh's edits; nil when there were none to take.
        public let outcome: HostKeyRotation.Outcome?
    }

    /// Why a file's content is not read.
    enum Unreadable: Error { case refused }

    /// Takes ssh's edits of `lookup`'s file into the store, then makes the file equal to the
    /// store again (or removes it when the rules say not to learn). `store` reads;
    /// `writableStore` is opened only when there is something to take.
    public func reconcile(_ lookup: HostLookupName, store: KnownHostsStore, writableStore: () throws -> KnownHostsStore,
                          salt: () -> [UInt8]) throws -> Reconciled {
        let name = Self.fileName(lookup)
        let kept = folder + "/" + name, base = baseFolder + "/" + name
        // The file an earlier version kept for the name under its SHA-256, which an installed
        // file written then may still name: removed before ssh reads it (ssh then finds the
        // key through KnownHostsCommand alone), so that no file ssh reads falls behind the store.
        if name != Self.hashedFileName(lookup) {
            _ = unlink(folder + "/" + Self.hashedFileName(lookup))
            _ = unlink(baseFolder + "/" + Self.hashedFileName(lookup))
        }
        var start = try store.rotationStart(lookup)
        var outcome: HostKeyRotation.Outcome?
        let keptBytes = try? Self.read(kept)
        if case .learn(let rows) = start, let keptBytes = keptBytes ?? nil,
           let baseBytes = (try? Self.read(base)) ?? nil, let written = baseText(baseBytes, lookup: lookup),
           written == Array(HostKeyRotation.knownHostsText(rows).utf8), keptBytes != written {
            let proven = HostKeyRotation.provenKeys(String(decoding: keptBytes, as: UTF8.self), lookup: lookup)
            if proven.count <= Self.maxKeys {
                outcome = try writableStore().learnRotation(lookup, baseline: rows, proven: proven, salt: salt)
                start = try store.rotationStart(lookup)
            }
        }
        _ = unlink(kept + ".old")
        if case .learn(let rows) = start {
            let text = Array(HostKeyRotation.knownHostsText(rows).utf8)
            let header = self.header(lookup)
            guard !lookup.host.contains("\n"), !database.contains("\n") else { return Reconciled(lookup: lookup, outcome: outcome) }
            try Self.makeFolder(folder)
            try Self.makeFolder(baseFolder)
            if ((try? Self.read(base)) ?? nil) != header + text { try Self.write(base, header + text) }
            if (keptBytes ?? nil) != text || outcome != nil { try Self.write(kept, text) }
        } else {
            _ = unlink(kept)
            _ = unlink(base)
        }
        return Reconciled(lookup: lookup, outcome: outcome)
    }

    /// Every name hostbook has written a file for (also under the name an earlier version
    /// gave it: `reconcile` moves it).
    public func lookups() -> [HostLookupName] {
        var out: [HostLookupName] = []
        var seen: Set<HostLookupName> = []
        for name in Self.list(baseFolder) {
            guard let bytes = (try? Self.read(baseFolder + "/" + name)) ?? nil, let lookup = Self.lookup(ofBase: bytes),
                  Self.fileName(lookup) == name || Self.hashedFileName(lookup) == name, baseText(bytes, lookup: lookup) != nil,
                  seen.insert(lookup).inserted else { continue }
            out.append(lookup)
        }
        return out
    }

    /// True when some file differs from what hostbook wrote into it (ssh edited it, or it is
    /// gone): reads files only, never the store.
    public func hasEdits() -> Bool {
        // Not AtomicFile's temporary files (`.NAME.PID-RANDOM.tmp`); a kept file's name ends
        // in its port or a hex digit.
        for name in Self.list(baseFolder) where !name.hasSuffix(".tmp") {
            guard let bytes = (try? Self.read(baseFolder + "/" + name)) ?? nil, let lookup = Self.lookup(ofBase: bytes) else { return true }
            guard let written = baseText(bytes, lookup: lookup) else { continue }
            if ((try? Self.read(folder + "/" + name)) ?? nil) != written { return true }
        }
        return false
    }

    /// Reconciles every name hostbook has written a file for.
    public func reconcileAll(store: KnownHostsStore, writableStore: () throws -> KnownHostsStore, salt: () -> [UInt8]) throws -> [Reconciled] {
        try lookups().map { try reconcile($0, store: store, writableStore: writableStore, salt: salt) }
    }

    /// Removes every file (the configuration is uninstalled).
    public func removeAll() {
        for folder in [folder, baseFolder] {
            for name in Self.list(folder) { _ = unlink(folder + "/" + name) }
            _ = rmdir(folder)
        }
    }

    // MARK: Files

    static func lookup(ofBase bytes: [UInt8]) -> HostLookupName? {
        let lines = bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count >= 2, !lines[0].isEmpty, let port = Int(String(decoding: lines[1], as: UTF8.self)), TCPPort.isValid(port) else { return nil }
        return HostLookupName(host: String(decoding: lines[0], as: UTF8.self), port: port)
    }

    func header(_ lookup: HostLookupName) -> [UInt8] { Array("\(lookup.host)\n\(lookup.port)\n\(database)\n".utf8) }

    /// The file text a base copy holds, when it is the copy for `lookup` and this database.
    func baseText(_ bytes: [UInt8], lookup: HostLookupName) -> [UInt8]? {
        let header = header(lookup)
        guard bytes.starts(with: header) else { return nil }
        return Array(bytes.dropFirst(header.count))
    }

    /// A file's bytes; nil when it does not exist. Refused: not a regular file, not the
    /// user's, writable by others, or larger than `maxFileSize`.
    static func read(_ path: String) throws -> [UInt8]? {
        let fd: Int32, info: stat
        do { (fd, info) = try RegularFile.open(path) } catch {
            if case .system = error, errno == ENOENT { return nil }
            throw Unreadable.refused
        }
        defer { close(fd) }
        guard info.st_uid == getuid(), info.st_mode & 0o022 == 0, Int(info.st_size) <= maxFileSize else { throw Unreadable.refused }
        guard let bytes = try? FileDescriptor(fd).readToEnd(limit: maxFileSize) else { throw Unreadable.refused }
        return bytes
    }

    /// A file or folder hostbook could not write (the executable words it).
    public struct WriteFailure: Error, Sendable {
        public let path: String
        public let reason: String
    }

    static func write(_ path: String, _ bytes: [UInt8]) throws {
        do { try AtomicFile.write(path, bytes: bytes, mode: 0o600, replace: true) } catch {
            if case .io(let why) = error { throw WriteFailure(path: path, reason: why) }
            throw WriteFailure(path: path, reason: "it exists")
        }
    }

    static func makeFolder(_ path: String) throws {
        do { try PrivateFolder.make(path) } catch {
            throw WriteFailure(path: error.path, reason: "\(error.errno)")
        }
    }

    static func list(_ folder: String) -> [String] {
        FolderNames.of(folder) ?? []
    }
}
