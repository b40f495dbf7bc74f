// swift-tools-version:6.0
// hostbook — SSH host and credential manager for Linux.
// Dependencies are the Swift toolchain and four Debian C libraries only (see DESIGN.md).
import PackageDescription

// Swift 6 language mode (strict concurrency) for every target; C shims are imported
// with `internal import` so no C type reaches a public API.
let strict: [SwiftSetting] = []

let package = Package(
    name: "hostbook",
    products: [
        .executable(name: "hostbook", targets: ["hostbook"]),
        .library(name: "KeyFormats", targets: ["KeyFormats"]),
        .library(name: "Vault", targets: ["Vault"]),
        .library(name: "HostStore", targets: ["HostStore"]),
    ],
    targets: [
        // C shims over system libraries: one folder each (module.modulemap + shim.h).
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
                       providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CLibSecret", path: "Sources/CLibSecret", pkgConfig: "libsecret-1",
                       providers: [.apt(["libsecret-1-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),

        // Secret bytes in libsodium secure memory, shared by every layer.
        .target(name: "SecureMemory", dependencies: ["CSodium"], swiftSettings: strict),

        // Pure parsing/encoding of SSH key formats. No I/O.
        .target(name: "KeyFormats", dependencies: ["SecureMemory", "CSodium", "COpenSSL"],
                swiftSettings: strict + [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]),
        // Secret Service through libsecret.
        .target(name: "Vault", dependencies: ["SecureMemory", "CLibSecret"], swiftSettings: strict),
        // SQLite: hosts, snippets, key metadata, known hosts, importers.
        .target(name: "HostStore", dependencies: ["KeyFormats", "CSQLite3"], swiftSettings: strict),
        // The command-line program.
        .executableTarget(name: "hostbook",
                          dependencies: ["KeyFormats", "Vault", "HostStore", "SecureMemory"],
                          swiftSettings: strict),

        .testTarget(name: "KeyFormatsTests", dependencies: ["KeyFormats"], swiftSettings: strict),
        .testTarget(name: "VaultTests", dependencies: ["Vault", "SecureMemory"], swiftSettings: strict),
        .testTarget(name: "HostStoreTests", dependencies: ["HostStore", "KeyFormats"], swiftSettings: strict),
        // End-to-end tests run the real `hostbook` binary.
        .testTarget(name: "HostbookTests", dependencies: ["hostbook"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
