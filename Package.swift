// swift-tools-version:6.0
// hostbook — SSH host and credential manager for Linux. Dependencies are the Swift toolchain
// and four Debian C libraries only (see docs/development.md).
import PackageDescription
import Foundation

/// Include folders for libsecret and glib. libsecret's pkg-config `Cflags` carry `-pthread`,
/// which SwiftPM refuses with a "prohibited flag(s)" warning, so the CLibSecret target has no
/// `pkgConfig`; its targets get only the `-I` part of those flags. pkg-config answers for the
/// machine's own architecture (glibconfig.h lives in /usr/lib/<multiarch>/glib-2.0/include);
/// without pkg-config the Debian folders are searched for every architecture.
let libsecretIncludeFolders: [String] = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags-only-I", "libsecret-1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    if (try? process.run()) != nil {
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let folders = String(decoding: output, as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\n" })
            .filter { $0.hasPrefix("-I") }
            .map { String($0.dropFirst(2)) }
        if process.terminationStatus == 0, !folders.isEmpty { return folders }
    }
    let multiarch = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
        .sorted()
        .map { "/usr/lib/\($0)/glib-2.0/include" }
        .filter { FileManager.default.fileExists(atPath: $0 + "/glibconfig.h") }
    return ["/usr/include/libsecret-1", "/usr/include/glib-2.0"] + multiarch.prefix(1)
}()
/// For every target that imports CLibSecret, directly or through a module that does.
let libsecretHeaders: [SwiftSetting] = [.unsafeFlags(libsecretIncludeFolders.flatMap { ["-Xcc", "-I\($0)"] })]

let package = Package(
    name: "hostbook",
    products: [
        .executable(name: "hostbook", targets: ["hostbook"]),
        .library(name: "KeyFormats", targets: ["KeyFormats"]),
        .library(name: "Vault", targets: ["Vault"]),
        .library(name: "ImportFormats", targets: ["ImportFormats"]),
        .library(name: "HostStore", targets: ["HostStore"]),
        .library(name: "SSHConfig", targets: ["SSHConfig"]),
        .library(name: "Agent", targets: ["Agent"]),
        .library(name: "Sessions", targets: ["Sessions"]),
        .library(name: "Credentials", targets: ["Credentials"]),
        .library(name: "SecurityKeys", targets: ["SecurityKeys"]),
        .library(name: "Tokens", targets: ["Tokens"]),
        .library(name: "Workflows", targets: ["Workflows"]),
    ],
    targets: [
        // C shims over system libraries: one folder each (module.modulemap + shim.h).
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
                       providers: [.apt(["libsodium-dev"])]),
        // No pkgConfig: see libsecretIncludeFolders above. Declarations only, nothing linked:
        // Vault loads libsecret with dlopen when a command first uses the vault
        // (Sources/Vault/LibSecret/LibSecretLibrary.swift).
        .systemLibrary(name: "CLibSecret", path: "Sources/CLibSecret",
                       providers: [.apt(["libsecret-1-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // OpenSSH's security-key middleware interface (declarations only: a provider is
        // loaded with dlopen, nothing is linked).
        .systemLibrary(name: "CSecurityKey", path: "Sources/CSecurityKey"),
        // The PKCS#11 (Cryptoki) interface (declarations only: a module is loaded with dlopen).
        .systemLibrary(name: "CPKCS11", path: "Sources/CPKCS11"),

        // The one place for system calls (descriptors read and written whole, atomic files,
        // processes, PATH, Unix sockets, the mutex, threads). Glibc only; knows nothing of hostbook.
        .target(name: "System"),

        // Secret bytes in libsodium secure memory, shared by every layer.
        .target(name: "SecureMemory", dependencies: ["CSodium"]),

        // Pure parsing/encoding of SSH key formats. No I/O. Like every target it has no
        // optimisation flag of its own: release builds are -O with all bounds and overflow
        // checks (the bcrypt loop is fast with them on: KDF/Eksblowfish.swift).
        .target(name: "KeyFormats", dependencies: ["System", "SecureMemory", "CSodium", "COpenSSL"]),
        // Secret Service through libsecret. Its words for the user are the executable's
        // (VaultError's Remedy, VaultWaitNotice), so it needs no escaping rule.
        .target(name: "Vault", dependencies: ["System", "SecureMemory", "CLibSecret"], swiftSettings: libsecretHeaders),
        // Pure readers of documents from outside (the streaming JSON reader, Tailscale's status
        // and device list, RFC 3339 times, Punycode and alias sanitising). No I/O: a caller
        // hands the bytes over through a ByteSource.
        .target(name: "ImportFormats", dependencies: ["KeyFormats"]),
        // SQLite: hosts, snippets, key metadata, known hosts, importers.
        .target(name: "HostStore", dependencies: ["System", "KeyFormats", "ImportFormats", "CSQLite3"]),
        // Pure ssh_config reading (Include, Host/Match, first value wins) and writing. No I/O.
        .target(name: "SSHConfig", dependencies: ["System"]),
        // The ssh-agent protocol: codec, a Unix-socket server, signing; the caller's policy decides
        // which keys a connection sees. Never imports HostStore or Vault.
        .target(name: "Agent", dependencies: ["System", "KeyFormats", "SecureMemory"]),
        // Security keys (FIDO2, sk-* keys): a provider library through OpenSSH's middleware
        // interface, or OpenSSH's ssh-sk-helper; sign, enrol, load resident keys.
        .target(name: "SecurityKeys", dependencies: ["System", "KeyFormats", "SecureMemory", "CSecurityKey"]),
        // PKCS#11 tokens (smart cards, PIV keys, HSMs): a module loaded in-process under the
        // system-folder rule; its tokens, public key objects, and signatures after C_Login.
        .target(name: "Tokens", dependencies: ["System", "KeyFormats", "SecureMemory", "CPKCS11"]),
        // What hostbook's ssh sessions and agents decide, in-process and testable: the plan of a
        // `hostbook ssh` session (the host, its jump chain, keys, host-key algorithms) and its
        // ssh_config, the installed ssh_config (which hosts it holds and leaves out), the
        // standing agent's state, both agents' one access policy, and team bundles (signed
        // through the agent, fetched with git). Never imports Vault: private keys come
        // through the caller.
        .target(name: "Sessions", dependencies: ["System", "Agent", "HostStore", "KeyFormats", "ImportFormats", "SecureMemory", "SSHConfig", "Tokens"]),
        // Keys and passwords across the two stores: the one owner of the order of every write
        // that touches both the database and the vault (the only module importing both).
        .target(name: "Credentials", dependencies: ["HostStore", "Vault", "KeyFormats", "SecureMemory", "System"],
                swiftSettings: libsecretHeaders),
        // Each command's work, one type per workflow, put together from the libraries below
        // and run in a Workspace (the command's environment and its one database handle):
        // `hostbook ssh`'s session, the installed config, bundles, keys, known hosts. Tested
        // in-process; throws typed errors the executable words.
        .target(name: "Workflows",
                dependencies: ["System", "KeyFormats", "ImportFormats", "Vault", "HostStore", "SecureMemory", "SSHConfig", "Agent", "Sessions", "Credentials", "SecurityKeys", "Tokens"],
                swiftSettings: libsecretHeaders),
        // What any command-line program needs, knowing nothing of hostbook: its command
        // table's declarations, the argument parser (mistakes as ArgumentError values), help,
        // bash/zsh/fish completion scripts and the man page's commands drawn from the table,
        // text for the terminal that escapes what it is given (TerminalText), aligned tables
        // fitted to the terminal's width, a progress line, prompts (secrets straight into
        // secure memory) and the raw terminal of a full-screen prompt.
        .target(name: "CommandLineKit", dependencies: ["System", "KeyFormats", "SecureMemory"]),
        // The command-line program: reads arguments, asks (prompts, approvers) and presents
        // what a workflow returns or throws.
        .executableTarget(name: "hostbook",
                          dependencies: ["System", "KeyFormats", "ImportFormats", "Vault", "HostStore", "SecureMemory", "SSHConfig", "Agent", "Sessions", "Credentials", "SecurityKeys", "Tokens", "Workflows", "CommandLineKit"],
                          swiftSettings: libsecretHeaders),

        // What several test targets share (seeded random input, fixture paths, the fuzz replay,
        // temporary folders, running an oracle program); only test targets depend on it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SystemTests", dependencies: ["System", "TestSupport"]),
        // CommandLineKit over a toy program's table (not hostbook's): the parser, help, the
        // completion scripts in the real bash.
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "TestSupport"]),
        .testTarget(name: "KeyFormatsTests", dependencies: ["KeyFormats", "TestSupport"]),
        .testTarget(name: "VaultTests", dependencies: ["Vault", "SecureMemory", "vault-probe", "TestSupport"],
                    swiftSettings: libsecretHeaders),
        // Test helper: one vault call in a child process, pointed at a private D-Bus session.
        .executableTarget(name: "vault-probe", dependencies: ["Vault", "SecureMemory"], path: "Tests/VaultProbe",
                          swiftSettings: libsecretHeaders),
        .testTarget(name: "SSHConfigTests", dependencies: ["SSHConfig", "TestSupport"]),
        .testTarget(name: "SecurityKeysTests", dependencies: ["SecurityKeys", "KeyFormats", "SecureMemory", "System", "TestSupport"]),
        .testTarget(name: "TokensTests", dependencies: ["Tokens", "KeyFormats", "SecureMemory", "TestSupport"]),
        .testTarget(name: "AgentTests", dependencies: ["Agent", "KeyFormats", "SecureMemory", "System", "TestSupport"]),
        .testTarget(name: "ImportFormatsTests", dependencies: ["ImportFormats", "KeyFormats", "TestSupport"]),
        .testTarget(name: "HostStoreTests", dependencies: ["HostStore", "ImportFormats", "KeyFormats", "TestSupport"]),
        .testTarget(name: "CredentialsTests", dependencies: ["Credentials", "HostStore", "Vault", "KeyFormats", "SecureMemory", "TestSupport"],
                    swiftSettings: libsecretHeaders),
        .testTarget(name: "SessionsTests", dependencies: ["Sessions", "Agent", "SecurityKeys", "Tokens", "HostStore", "KeyFormats", "SecureMemory", "SSHConfig", "TestSupport"]),
        // Each workflow in-process, in a Workspace over a real SQLite file (and, where the
        // workflow reaches it, the real keyring and OpenSSH).
        .testTarget(name: "WorkflowsTests", dependencies: ["Workflows", "Sessions", "Credentials", "HostStore", "KeyFormats", "SecureMemory", "System", "TestSupport"],
                    swiftSettings: libsecretHeaders),
        // The repository's scripts where they run no hostbook (their arguments, their help).
        .testTarget(name: "ScriptTests", dependencies: ["TestSupport"]),
        // End-to-end tests run the real `hostbook` binary, only where the command line itself
        // (parsing, exit codes, output, prompts, the installed config as ssh reads it) is the subject.
        .testTarget(name: "HostbookTests", dependencies: ["hostbook", "TestSupport"], swiftSettings: libsecretHeaders),
        // The executable's own logic in-process (`@testable import hostbook`): the parser, the
        // command table, error wording and exit codes, output shapes. Spawns the binary only to
        // start the standing agent whose signatures a command needs (Support/InProcessAgent).
        .testTarget(name: "HostbookLogicTests", dependencies: ["hostbook", "Workflows", "HostStore", "CommandLineKit", "TestSupport"], swiftSettings: libsecretHeaders),
    ],
    swiftLanguageModes: [.v6]
)
