// The system `git` for bundle subscriptions: a clone into hostbook's data folder, a fetch,
// the two files read from a commit (`git cat-file blob`, bounded), and the commit applied
// recorded as the ref refs/hostbook/applied. No working tree is ever checked out: a hostile
// tree could be huge (a compression bomb) or name filters (.gitattributes, git-lfs from the
// user's configuration) that run programs. Run through System's CapturedProcess
// (stdin /dev/null) with GIT_TERMINAL_PROMPT=0 (a URL that wants a password fails instead
// of asking) and GIT_ALLOW_PROTOCOL limited to file, git, http(s) and ssh (no `ext::`
// command transports; problem(url:) refuses a `HELPER::` URL before git sees it); `--`
// before every URL or path from the user, so none is an option.
// The repository is the publisher's, and may be hostile: every command runs with no hooks
// (core.hooksPath=/dev/null), no fsmonitor, no submodules (submodule.recurse=false,
// --no-recurse-submodules), symbolic links as plain files (core.symlinks=false) and no
// git-lfs filter (filter.lfs.* emptied, GIT_LFS_SKIP_SMUDGE=1); a clone or fetch is killed
// after `networkTimeoutMilliseconds`; the clone is --no-local (a path is read through git's transport,
// never hard-linked or copied as the folder holds it) and --no-checkout (no file of an
// unverified commit is written); git's repository-location variables (GIT_DIR, ...) are
// dropped from the environment so every command acts on the clone. The two files must be
// regular files in the commit's tree (not a symbolic link, a submodule or a folder), and
// their size is checked before they are read.
import ImportFormats
import KeyFormats
import System

public struct BundleGit: Sendable {
    public let git: String
    var environment: [String]

    /// git on PATH, or `SessionRefusal.gitNotInstalled`.
    public init(environment: [String: String]) throws {
        guard let git = ExecutablePath.find("git", searchPath: environment["PATH"]) else {
            throw SessionRefusal.gitNotInstalled(forBundles: true)
        }
        self.git = git
        var env = environment.filter { !Self.repositoryVariables.contains($0.key) }
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GIT_ALLOW_PROTOCOL"] = "file:git:http:https:ssh"
        env["GIT_LFS_SKIP_SMUDGE"] = "1"
        self.environment = Spawn.Options.environment(env)
    }

    /// This git, running `sshCommand` (words, each quoted for sh) as GIT_SSH_COMMAND when
    /// given (BundleGitSSH: a host hostbook knows), else the user's ssh as configured.
    public func reaching(sshCommand: [String]?) -> BundleGit {
        guard let sshCommand else { return self }
        var copy = self
        copy.environment = environment.filter { !$0.hasPrefix("GIT_SSH_COMMAND=") && !$0.hasPrefix("GIT_SSH_VARIANT=") && !$0.hasPrefix("GIT_SSH=") }
            + ["GIT_SSH_COMMAND=" + sshCommand.map(ShellWord.quoted).joined(separator: " "), "GIT_SSH_VARIANT=ssh"]
        copy.environment.sort()
        return copy
    }

    /// The GIT_SSH_COMMAND git runs with (nil: the user's ssh).
    public var sshCommand: String? {
        environment.first { $0.hasPrefix("GIT_SSH_COMMAND=") }.map { String($0.dropFirst("GIT_SSH_COMMAND=".count)) }
    }

    /// Variables that point git at another repository, index or object store than the clone.
    static let repositoryVariables: Set<String> = [
        "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    ]

    /// Given before every git command: nothing in or near the clone runs a program.
    static let safety = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "submodule.recurse=false",
                         "-c", "core.symlinks=false",
                         "-c", "filter.lfs.process=", "-c", "filter.lfs.smudge=", "-c", "filter.lfs.required=false"]

    /// The ref that names the commit last applied (the clone has no working tree).
    public static let appliedRef = "refs/hostbook/applied"

    /// How long a clone or fetch may take (10 minutes): a server that never answers does
    /// not hold the command forever.
    static let networkTimeoutMilliseconds: Int64 = 600_000

    /// Schemes whose user part (`TOKEN@`) is a credential: refused in a URL.
    static let schemesWithSecretUserinfo: Set<String> = ["http", "https", "git", "ftp", "ftps"]

    /// Why `url` cannot be cloned from: empty, a control character, starting with `-`, a
    /// remote helper, or a password or an http(s)/git user part (a token) in it (secrets
    /// never go into the database).
    public static func problem(url: String) -> String? {
        if url.isEmpty { return "the git URL or path is empty" }
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) {
            return "the git URL or path '\(url)' holds a control character"
        }
        if url.hasPrefix("-") { return "the git URL or path '\(url)' starts with '-'" }
        // HELPER::ADDRESS runs git-remote-HELPER; ext:: runs any command it is given.
        if let helper = url.firstRange(of: "::"),
           url[..<helper.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-_".contains($0)) }) {
            return "the git URL '\(url)' names a git remote helper ('\(String(url[..<helper.lowerBound]))::'); only file, git, http(s) and ssh URLs and paths are cloned"
        }
        // https://user:token@host/... or https://TOKEN@host/...: the secret would be stored
        // with the subscription and shown. Over ssh (ssh://git@host/, git@host:path) the user
        // part is a login name, no secret; a password there is refused all the same.
        if let scheme = url.firstRange(of: "://") {
            let authority = url[scheme.upperBound...].prefix { $0 != "/" }
            if let at = authority.lastIndex(of: "@") {
                if authority[..<at].contains(":") {
                    return "the git URL holds a password (user:password@); it would be stored with the subscription"
                }
                if Self.schemesWithSecretUserinfo.contains(url[..<scheme.lowerBound].lowercased()) {
                    return "the git URL holds a user name or token before '@'; it would be stored with the subscription"
                }
            }
        }
        return nil
    }

    /// `git clone --quiet --no-local --no-checkout --no-recurse-submodules -- URL DIR`.
    public func clone(_ url: String, into folder: String) throws {
        try run(["clone", "--quiet", "--no-local", "--no-checkout", "--no-recurse-submodules", "--", url, folder],
                doing: "clone \(url)", timeoutMilliseconds: Self.networkTimeoutMilliseconds)
    }

    /// The URL the clone at `folder` was made from (nil: not a clone, or none recorded).
    public func origin(_ folder: String) -> String? {
        guard let out = try? run(["-C", folder, "config", "--get", "remote.origin.url"], doing: "read the origin of \(folder)") else { return nil }
        return String(decoding: out.prefix { $0 != 0x0a }, as: UTF8.self)
    }

    /// `git -C DIR fetch --quiet --no-recurse-submodules origin`; the fetched head's commit id.
    public func fetch(_ folder: String) throws -> String {
        try run(["-C", folder, "fetch", "--quiet", "--no-recurse-submodules", "origin"], doing: "fetch into \(folder)",
                timeoutMilliseconds: Self.networkTimeoutMilliseconds)
        return try revision(folder, "FETCH_HEAD")
    }

    /// The commit id of `rev` in the clone at `folder`.
    public func revision(_ folder: String, _ rev: String) throws -> String {
        let out = try run(["-C", folder, "rev-parse", "--verify", "--quiet", rev + "^{commit}"], doing: "read \(rev) in \(folder)")
        return String(decoding: out.prefix { $0 != 0x0a }, as: UTF8.self)
    }

    /// The bundle's text and signature in commit `rev` (nil: not in that commit).
    public func files(_ folder: String, at rev: String) throws -> (text: [UInt8]?, signature: [UInt8]?) {
        (try show(folder, rev, BundleFolder.textName, limit: BundleText.maximumBytes),
         try show(folder, rev, BundleFolder.signatureName, limit: SSHSignatureFile.maxLength))
    }

    /// Records `rev` (what was just applied) as `appliedRef` in the clone; no file of the
    /// commit is written.
    public func recordApplied(_ folder: String, _ rev: String) throws {
        try run(["-C", folder, "update-ref", "-m", "hostbook: applied", Self.appliedRef, rev], doing: "record \(rev) as applied in \(folder)")
    }

    /// `name` in commit `rev`: nil when the commit has none; refused when it is not a regular
    /// file (a symbolic link would be read as its target's name, a submodule or folder is no
    /// file) or larger than `limit` (checked from the tree before a byte is read).
    private func show(_ folder: String, _ rev: String, _ name: String, limit: Int) throws -> [UInt8]? {
        // One line: "MODE TYPE OID SIZE\tNAME" (SIZE "-" for a submodule or folder).
        let listed = try run(["-C", folder, "ls-tree", "-l", "--full-tree", rev, "--", name], doing: "list \(rev) in \(folder)")
        guard !listed.isEmpty else { return nil }
        let fields = String(decoding: listed.prefix { $0 != 0x09 }, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: true)
        let commit = String(rev.prefix(12))
        guard fields.count == 4 else { throw SessionRefusal.gitListingUnknown(file: name, folder: folder, commit: commit) }
        let mode = fields[0], oid = String(fields[2])
        switch mode {
        case "100644", "100755": break
        default: throw SessionRefusal.notAPlainFile(file: name, folder: folder, commit: commit, mode: String(mode))
        }
        guard oid.allSatisfy(\.isHexDigit), let size = Int(fields[3]) else { throw SessionRefusal.gitListingUnknown(file: name, folder: folder, commit: commit) }
        guard size <= limit else {
            throw SessionRefusal.gitFileTooLarge(file: name, folder: folder, commit: commit, limit: limit)
        }
        let bytes = try run(["-C", folder, "cat-file", "blob", oid], doing: "read \(name) in \(folder)", limit: limit + 1)
        guard bytes.count <= limit else {
            throw SessionRefusal.gitFileTooLarge(file: name, folder: folder, commit: commit, limit: limit)
        }
        return bytes
    }

    @discardableResult
    private func run(_ args: [String], doing what: String, limit: Int = 1 << 16, timeoutMilliseconds: Int64? = nil) throws -> [UInt8] {
        let result: CapturedProcess.Result
        do {
            result = try CapturedProcess.run(git, ["git"] + Self.safety + args, options: Spawn.Options(environment: environment), limit: limit,
                                             timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw SessionRefusal.programNotRun(program: git, reason: "\(error)")
        }
        if result.timedOut {
            throw SessionRefusal.gitTimedOut(what: what, minutes: Int(Self.networkTimeoutMilliseconds / 60_000))
        }
        guard result.status.exitCode == 0 else {
            throw BundleGitFailure(what: what, status: result.status.exitCode, stderr: result.stderr)
        }
        return result.stdout
    }
}
