// `hostbook bundle trust NAME --signer "TYPE BASE64"... [--ca-scope PATTERN]...`: who may
// sign bundle NAME (BundleStore.trust), and the host patterns beyond its own hosts its
// `@cert-authority` lines may name (BundleStore.grant). A signer is a public key line: `TYPE BASE64`, with a comment, an
// authorized_keys line with options, or an allowed_signers line (principal first).
import CommandLineKit
import HostStore
import ImportFormats
import KeyFormats
import Workflows

enum BundleTrust {
    static let spec = CommandSpec(
        ["bundle", "trust"], summary: "Trust a key to sign bundle NAME",
        usage: "NAME --signer \"TYPE BASE64\" [--signer ...] [--ca-scope PATTERN]...",
        discussion: """
            Imports and updates of bundle NAME are accepted only when signed by one of its trusted \
            signers. A signer is a public key line ('hostbook keys public KEY' prints one); a comment, \
            authorized_keys options or an allowed_signers principal before it are ignored. \
            --ca-scope grants the bundle a host pattern beyond its own hosts (e.g. '*.corp.example', \
            never a bare '*'): a certificate authority it carries may then vouch for host \
            certificates of those names. A CA line naming anything beyond the bundle's hosts and \
            the patterns granted is reported and not applied.
            """,
        positionals: [.required("NAME", "The bundle's name")],
        options: [.value(.signer, "KEY", "A public key line: TYPE BASE64 [COMMENT] (repeatable)", repeatable: true),
                  .value(.caScope, "PATTERN", "A host pattern the bundle's certificate authority may vouch for (repeatable)", repeatable: true)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        if let problem = BundleName.problem(name) { throw CLIError.rejected(problem) }
        let lines = inv.args.values(.signer)
        guard !lines.isEmpty else {
            throw CLIError.usage("bundle trust needs --signer \"TYPE BASE64\"", hint: "The publisher prints their key with 'hostbook keys public KEY'.")
        }
        let keys = try lines.map(signer)
        let scope = inv.args.values(.caScope)
        for p in scope {
            if let problem = TrustAuthority.scopeProblem(p) { throw CLIError.rejected("--ca-scope '\(p)': \(problem)") }
        }
        let trusted = try BundleTrusting.trust(inv.workspace, bundle: name, signers: keys, scope: scope)
        let added = trusted.signers, granted = trusted.granted
        if inv.json {
            inv.printJSON(.object([
                ("bundle", .string(name)),
                ("signers", .array(added.map { key, new in
                    .object([("fingerprint", .string(key.sha256Fingerprint)), ("public_key", .string(key.line())), ("added", .bool(new))])
                })),
                ("ca_scope", .strings(trusted.scope)),
                ("ca_scope_added", .strings(granted)),
            ]))
            return
        }
        for (key, new) in added {
            inv.print(new ? "Bundle '\(name)' may now be signed by \(key.sha256Fingerprint) (\(key.shortTypeName))."
                           : "Bundle '\(name)' was already signed by \(key.sha256Fingerprint) (\(key.shortTypeName)): nothing changed.")
        }
        for p in scope {
            inv.print(granted.contains(p) ? "Bundle '\(name)' may now vouch for host certificates of '\(p)'."
                                          : "Bundle '\(name)' could already vouch for host certificates of '\(p)': nothing changed.")
        }
    }

    /// The key of a `--signer` line.
    static func signer(_ line: String) throws -> PublicKey {
        let trimmed = trim(line)
        if let parsed = try? PublicKeyLine.parse(trimmed) { return parsed.key }
        if let parsed = try? AuthorizedKeysLine.parse(trimmed) { return parsed.key }
        // An allowed_signers line: principals, then (options) and the key.
        if let space = trimmed.firstIndex(of: " "), let parsed = try? AuthorizedKeysLine.parse(trim(String(trimmed[space...]))) {
            return parsed.key
        }
        throw CLIError.rejected("--signer '\(line)' is not a public key line", hint: "Give it as TYPE BASE64, e.g. the output of 'hostbook keys public KEY'.")
    }
}

/// `text` without white space at either end.
private func trim(_ text: String) -> String {
    let blank: Set<Character> = [" ", "\t", "\n", "\r"]
    return String(String(text.drop(while: blank.contains).reversed()).drop(while: blank.contains).reversed())
}
