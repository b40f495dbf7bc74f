// `hostbook git setup KEY [--global | --repo PATH] [--email E] [--start-agent]`: git signs
// commits and tags with a saved key through hostbook's standing agent. In the chosen scope of
// git's configuration it sets gpg.format ssh; gpg.ssh.program to hostbook itself (`program`: git
// then runs `hostbook -Y sign`, which finds the standing agent at its own socket, so signing
// needs no SSH_AUTH_SOCK: GitSignatureProgram); user.signingkey to the key's public key file
// `KEYFOLDER/FINGERPRINT.pub`, which it writes (a file, not git's literal `key::` form, for which
// git 2.39 writes a temporary key file to /tmp and leaves it there); commit.gpgsign and
// tag.gpgsign true; hostbook.startAgent true with --start-agent (GitAgentAutostart); and gpg.ssh.allowedSignersFile to AllowedSigners' file, which it
// rewrites. It records the email the key signs as (--email,
// else git's user.email as that scope sees it; user.email is set there only when it had
// none), and restricts the key to the SSHSIG namespace `git` when it had no namespace
// (GitSigningKeys), so it signs git's signatures and nothing else, unless a saved host logs
// in with it: such a key is never narrowed (that would cut those hosts off), it is left
// unrestricted and the outcome names the hosts. Order: every check first
// (key, git, repository, email), then the database, the allowed signers file, the public
// key file, and git's configuration last, so git never points at a file that is not there.
#if canImport(Glibc)
import Glibc
#endif
public import HostStore
import KeyFormats
import System

public struct GitSigningSetup: Sendable {
    /// Whose git configuration is written.
    public enum Scope: Sendable, Equatable {
        /// ~/.gitconfig (`git config --global`).
        case global
        /// The repository at PATH (`git -C PATH config --local`).
        case repository(String)
        /// The repository of the current directory (`git config --local`).
        case currentRepository
    }

    /// What was done.
    public struct Outcome: Sendable {
        public let key: StoredKey
        public let email: String
        /// True when user.email was not set in the scope and is now `email`.
        public let setUserEmail: Bool
        public let namespaceChange: GitSigningKeys.NamespaceChange
        /// The saved hosts that log in with the key (why it was left unrestricted).
        public let hostsUsingKey: [String]
        /// user.signingkey as written: the public key file.
        public let signingKey: String
        /// gpg.ssh.program as written: hostbook.
        public let program: String
        public let allowedSignersFile: String
        /// Each git configuration value written, in order.
        public let settings: [(String, String)]
    }

    /// The git program.
    public let git: String
    /// The environment git runs with (`NAME=value`): the command's own, never this
    /// process's, so git reads the configuration the command's HOME, XDG_CONFIG_HOME and
    /// GIT_CONFIG_GLOBAL name.
    let environment: [String]

    public init(git: String, environment: [String: String]) {
        self.git = git
        self.environment = Spawn.Options.environment(environment)
    }

    /// git on PATH, run with `environment`, or `SessionRefusal.gitNotInstalled`.
    public static func findGit(environment: [String: String]) throws -> GitSigningSetup {
        guard let git = ExecutablePath.find("git", searchPath: environment["PATH"]) else {
            throw SessionRefusal.gitNotInstalled(forBundles: false)
        }
        return GitSigningSetup(git: git, environment: environment)
    }

    /// `program`: hostbook's own path (gpg.ssh.program); `keyFolder`: where the public key
    /// file is written (created 0700 when missing); `startAgent`: also set
    /// hostbook.startAgent true (GitAgentAutostart: signing starts the agent when none runs).
    public func run(database: HostDatabase, keyName: String, scope: Scope, email: String?,
                    home: String, environment: [String: String], program: String, keyFolder: String,
                    startAgent: Bool = false) throws -> Outcome {
        guard let key = try KeyStore(database: database).find(name: keyName) else {
            throw SessionRefusal.keyNotFound(name: keyName)
        }
        let publicKey = try key.publicKey
        let (email, configured) = try resolveEmail(scope: scope, email: email)

        let users = try database.hostsLoggingIn(withKey: key.name)
        let change = try GitSigningKeys(database: database).set(email: email, for: key, narrow: users.isEmpty)
        let file = AllowedSigners.path(home: home, environment: environment)
        try AllowedSigners.write(AllowedSigners.render(try GitSigningKeys(database: database).all()), to: file)

        let signingKey = Self.publicKeyFile(publicKey, folder: keyFolder)
        try AllowedSigners.write(Array((publicKey.line(comment: key.name) + "\n").utf8), to: signingKey)
        var settings: [(String, String)] = [
            ("gpg.format", "ssh"), ("gpg.ssh.program", program), ("user.signingkey", signingKey), ("commit.gpgsign", "true"),
            ("tag.gpgsign", "true"), ("gpg.ssh.allowedSignersFile", file),
        ]
        if startAgent { settings.append((GitAgentAutostart.key, "true")) }
        if configured == nil { settings.append(("user.email", email)) }
        for (name, value) in settings {
            let r = try git(writeArguments(scope) + [name, value])
            guard r.status.exitCode == 0 else {
                throw SessionRefusal.gitConfigFailed(name: name, gitSays: Self.firstLine(r.stderr))
            }
        }
        return Outcome(key: key, email: email, setUserEmail: configured == nil, namespaceChange: change,
                       hostsUsingKey: users, signingKey: signingKey, program: program, allowedSignersFile: file, settings: settings)
    }

    /// The public key file that user.signingkey names: named for the key's SHA-256
    /// fingerprint (a key name may hold any character, and may be renamed), its base64 made
    /// safe for a file name (`/` as `_`, `+` as `-`).
    public static func publicKeyFile(_ key: PublicKey, folder: String) -> String {
        let digest = key.sha256Fingerprint.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
        return folder + "/" + String(digest.map { $0 == "/" ? "_" : $0 == "+" ? "-" : $0 }) + ".pub"
    }

    /// Every check `run` makes before it writes anything (the repository, the email), for a
    /// caller that makes something first (`git setup --new-key` generates the key after it).
    public func check(scope: Scope, email: String?) throws {
        _ = try resolveEmail(scope: scope, email: email)
    }

    /// Checks that the repository of `scope` is one; returns the email to sign as (`email`,
    /// else user.email as the scope sees it) and user.email as configured there (nil: unset).
    private func resolveEmail(scope: Scope, email: String?) throws -> (email: String, configured: String?) {
        if case .repository(let path) = scope {
            guard try git(["-C", path, "rev-parse", "--git-dir"]).status.exitCode == 0 else {
                throw SessionRefusal.notAGitRepository(path: path)
            }
        } else if scope == .currentRepository, try git(["rev-parse", "--git-dir"]).status.exitCode != 0 {
            throw SessionRefusal.notAGitRepository(path: nil)
        }
        let configured = try configuredEmail(scope)
        guard let email = email ?? configured else {
            throw SessionRefusal.noGitEmail(global: scope == .global)
        }
        if let problem = GitSigningKeys.problem(email) {
            throw SessionRefusal.gitEmailRefused(problem: problem, email: email)
        }
        return (email, configured)
    }

    // MARK: git

    /// user.email as git sees it in `scope` (a repository's includes the global one), or nil.
    private func configuredEmail(_ scope: Scope) throws -> String? {
        let args: [String]
        switch scope {
        case .global: args = ["config", "--global", "--get", "user.email"]
        case .repository(let path): args = ["-C", path, "config", "--get", "user.email"]
        case .currentRepository: args = ["config", "--get", "user.email"]
        }
        let r = try git(args)
        guard r.status.exitCode == 0 else { return nil }
        let value = String(decoding: r.stdout, as: UTF8.self).trimmingSuffix("\n")
        return value.isEmpty ? nil : value
    }

    private func writeArguments(_ scope: Scope) -> [String] {
        switch scope {
        case .global: ["config", "--global"]
        case .repository(let path): ["-C", path, "config", "--local"]
        case .currentRepository: ["config", "--local"]
        }
    }

    private func git(_ args: [String]) throws -> CapturedProcess.Result {
        do {
            return try CapturedProcess.run(git, ["git"] + args, options: Spawn.Options(environment: environment), limit: 1 << 16)
        } catch {
            throw SessionRefusal.programNotRun(program: git, reason: "\(error)")
        }
    }

    static func firstLine(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0x0a }, as: UTF8.self)
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
