// The one reader of the user's ssh_config files, for `import-ssh-config` and for the Host
// names the installed configuration must leave alone (UserSSHConfigHosts): whole files,
// glob(3) with GLOB_TILDE for Include (`~` from $HOME, SSHConfigGlob), within the load's
// bounds (SSHConfigLoadLimits.standard: 4096 files, 16 MiB, 250,000 lines; a single file is
// refused past 16 MiB before it is read whole), and never blocking: only regular files are
// read (RegularFile), as O_NONBLOCK opens. Nothing is ever written.
//
// - hostbook's own installed file (`ssh-config --install`, which ~/.ssh/config includes on
//   its first line) and anything under hostbook's configuration folder are not the user's:
//   they are read as empty and listed in `excluded`, by path and by identity (a link to
//   them too).
// - ssh's ownership rule for user configuration (owned by the user or root, not writable
//   by group or others) is reported in `permissionProblems`, not refused.
// - What differs between the two callers is said in `Rules`: a folder (ssh's fopen and
//   getline read it as empty; the import refuses it) and a FIFO, device or socket (the
//   import passes it over as empty and lists it in `notRegular`; the installed
//   configuration refuses it, since the hosts it might define cannot be known).
#if canImport(Glibc)
import Glibc
#endif
public import SSHConfig
import System

public final class SSHConfigFiles {
    public struct Rules: Sendable {
        /// A folder is read as an empty file (true), or refused (false).
        public var folderIsEmpty: Bool
        /// A FIFO, device or socket is passed over as empty and listed (true), or refused (false).
        public var passOverNotRegular: Bool

        /// `import-ssh-config`: a folder is refused, anything else not regular passed over.
        public static let importing = Rules(folderIsEmpty: false, passOverNotRegular: true)
        /// The Host names of the user's configuration: a folder is empty, as for ssh; anything
        /// else not regular is refused.
        public static let definedHosts = Rules(folderIsEmpty: true, passOverNotRegular: false)
    }

    public let home: String
    public let rules: Rules
    /// Files ssh would refuse for their owner or mode (path, reason).
    public private(set) var permissionProblems: [(path: String, reason: String)] = []
    /// Files not read because they are not regular files (path, why), in the order met.
    public private(set) var notRegular: [(path: String, reason: String)] = []
    /// hostbook's own files an Include led to, not read (each once, in the order met).
    public private(set) var excluded: [String] = []
    /// The first file asked for could not be opened (it is missing, a link to nothing, unreadable).
    public private(set) var rootUnopened = false
    private var opened = 0

    private let excludedFile: String
    private let excludedFolder: String
    private let excludedIdentity: (dev: UInt64, ino: UInt64)?
    private let excludedFolderReal: String?

    /// Why a file cannot be read (the loader puts it after "cannot be read: ").
    public struct Unreadable: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The largest single file read: as large as a whole load (SSHConfigLoader bounds the sum).
    public static let maxSize = SSHConfigLoadLimits.standard.bytes

    /// A reader for the configuration of `installation.home`, leaving out `installation`'s
    /// generated file and folder.
    public init(installation: SSHConfigInstallation, rules: Rules) {
        home = installation.home
        self.rules = rules
        excludedFile = installation.generated
        excludedFolder = installation.folder
        var st = stat()
        excludedIdentity = stat(excludedFile, &st) == 0 ? (UInt64(st.st_dev), UInt64(st.st_ino)) : nil
        excludedFolderReal = Self.realPath(installation.folder)
    }

    public var access: SSHConfigFileAccess {
        SSHConfigFileAccess(read: { [self] path in try self.read(path) }, glob: { [self] pattern in self.glob(pattern) })
    }

    /// The bytes of `path`; nothing for hostbook's own files (listed in `excluded`) and, by
    /// the rules, for a folder or a file that is not regular.
    public func read(_ path: String) throws -> [UInt8] {
        let first = opened == 0
        opened += 1
        if isHostbooks(path) { return excludedRead(path) }
        let fd: Int32
        let info: stat
        do {
            (fd, info) = try RegularFile.open(path)
        } catch {
            switch error {
            case .notRegular(let mode) where mode & S_IFMT == S_IFDIR:
                if rules.folderIsEmpty { return [] }
                throw Unreadable(reason: "it is a folder")
            case .notRegular:
                guard rules.passOverNotRegular else { throw Unreadable(reason: "it is not a regular file") }
                notRegular.append((path, error.description))
                return []
            case .system(let why):
                if first { rootUnopened = true }
                throw Unreadable(reason: why)
            }
        }
        defer { close(fd) }
        if let id = excludedIdentity, UInt64(info.st_dev) == id.dev, UInt64(info.st_ino) == id.ino { return excludedRead(path) }
        if info.st_uid != getuid() && info.st_uid != 0 {
            permissionProblems.append((path, "owned by another user"))
        } else if info.st_mode & 0o022 != 0 {
            permissionProblems.append((path, "writable by group or others"))
        }
        do { return try FileDescriptor(fd).readToEnd(limit: Self.maxSize) } catch {
            switch error {
            case .system(let why): throw Unreadable(reason: why.description)
            case .tooLong: throw Unreadable(reason: "it is larger than \(Self.maxSize >> 20) MiB")
            }
        }
    }

    /// glob(3) as ssh calls it: sorted matches, none when nothing matches.
    public func glob(_ pattern: String) -> [String] { SSHConfigGlob.expand(pattern, home: home) }

    /// The installed file, or a path under hostbook's folder (as written, or once links are
    /// resolved).
    private func isHostbooks(_ path: String) -> Bool {
        if path == excludedFile || path.hasPrefix(excludedFolder + "/") { return true }
        guard let folder = excludedFolderReal, let real = Self.realPath(path) else { return false }
        return real == folder || real.hasPrefix(folder + "/")
    }

    private func excludedRead(_ path: String) -> [UInt8] {
        if !excluded.contains(path) { excluded.append(path) }
        return []
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
