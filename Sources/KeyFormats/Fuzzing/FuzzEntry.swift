// The bodies of the libFuzzer targets for KeyFormats' parsers (fuzz/targets/NAME.swift) and
// of their replay tests (Tests/KeyFormatsTests/FuzzRegressionTests.swift): both call these,
// so what the fuzzers ran and what the tests replay cannot drift apart. Each body must only
// not crash; errors thrown by the parsers are the expected outcome. Internal: reached
// through `@testable import` (the fuzz build compiles KeyFormats with -enable-testing).
import SecureMemory

enum FuzzEntry {
    /// The passphrase the targets try (the seed corpora are encrypted with it).
    static let passphrase = SecretBytes(copying: Array("hostbook-fixture-pass".utf8))

    /// Every target by its name (the folder names under fuzz/corpus and fuzz/crashers).
    static let targets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("openssh-key", openSSHKey), ("pem", pem), ("ppk", ppk), ("public-line", publicLine),
        ("rfc4716", rfc4716), ("certificate", certificate), ("known-hosts-line", knownHostsLine),
        ("ssh-signature", sshSignature), ("krl", krl),
    ]

    /// openssh-key-v1: without a passphrase, and with one when the bcrypt rounds are few.
    static func openSSHKey(_ bytes: [UInt8]) {
        _ = try? OpenSSHPrivateKey.isEncrypted(bytes)
        _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: nil)
        if fewBcryptRounds(bytes) {
            _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: passphrase)
        }
    }

    /// The parser's own reading of the rounds, at most 64 (more would only slow the fuzzer).
    static func fewBcryptRounds(_ bytes: [UInt8]) -> Bool {
        guard let rounds = try? OpenSSHPrivateKey.bcryptRounds(bytes) else { return true }
        return rounds <= 64
    }

    /// PEM / PKCS#1 / SEC1 / PKCS#8 private keys, without and with a passphrase.
    static func pem(_ bytes: [UInt8]) {
        _ = try? PEMPrivateKey.isEncrypted(bytes)
        _ = try? PEMPrivateKey.parse(bytes, passphrase: nil)
        _ = try? PEMPrivateKey.parse(bytes, passphrase: passphrase)
    }

    /// .ppk v2/v3; with the passphrase when the Argon2 cost is small; the private-blob
    /// parser on its own, past the MAC that guards it in a real file.
    static func ppk(_ bytes: [UInt8]) {
        _ = try? PPKFile.isEncrypted(bytes)
        _ = try? PPKFile.parse(bytes, passphrase: nil)
        guard let envelope = try? PPKEnvelope.parse(bytes) else { return }
        if let a = envelope.argon2, a.memory > 65_536 || a.passes > 4 { return }
        _ = try? PPKFile.parse(bytes, passphrase: passphrase)
        if let key = try? PublicKey(blob: envelope.publicBlob) {
            _ = try? PPKPrivateBlob.key(publicKey: key, privateBlob: envelope.privateBlob)
        }
    }

    /// One-line public keys, authorized_keys lines, public key files (also PEM public keys).
    static func publicLine(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? PublicKeyLine.parse(text)
        _ = try? AuthorizedKeysLine.parse(text)
        _ = try? PublicKeyFile.parse(bytes)
    }

    /// RFC 4716; encode → parse must give the same key.
    static func rfc4716(_ bytes: [UInt8]) {
        guard let line = try? RFC4716PublicKey.parse(bytes) else { return }
        let again = try? RFC4716PublicKey.parse(Array(RFC4716PublicKey.encode(line.key, comment: line.comment).utf8))
        if again?.key != line.key { fatalError("RFC 4716 round trip changed the key") }
    }

    /// OpenSSH certificates: the blob, its signature, its validity, a certificate line.
    static func certificate(_ bytes: [UInt8]) {
        if let cert = try? Certificate(blob: bytes) {
            _ = cert.verifySignature()
            _ = cert.isValid(at: 1_700_000_000)
            _ = cert.sha256Fingerprint
        }
        _ = try? PublicKeyFile.certificateLine(String(decoding: bytes, as: UTF8.self))
    }

    /// OpenSSH key revocation lists: the reader, and the writer's output read back, which
    /// must write the same bytes again (the writer sorts and removes repeats once).
    static func krl(_ bytes: [UInt8]) {
        guard let list = try? KeyRevocationList(bytes: bytes) else { return }
        let written = list.encoded()
        guard let again = try? KeyRevocationList(bytes: written) else { fatalError("a written KRL does not read back") }
        if again.encoded() != written { fatalError("KRL write → read → write changed the bytes") }
        _ = list.revocation(of: PublicKey(.ed25519(publicKey: [UInt8](repeating: 7, count: 32))))
    }

    /// SSHSIG signature files (`bundle.txt.sig`): the armour and blob reader, the render →
    /// parse round trip, and verification over a fixed message (which must refuse: the
    /// fuzzer cannot sign).
    static func sshSignature(_ bytes: [UInt8]) {
        guard let file = try? SSHSignatureFile.parse(bytes) else {
            _ = try? SSHSignatureFile(blob: bytes)
            return
        }
        if (try? SSHSignatureFile.parse(file.armored)) != file { fatalError("SSHSIG render → parse changed the signature") }
        if (try? file.verify(message: Array("format 1\n".utf8), namespace: file.namespace)) != nil,
           (try? file.verify(message: Array("format 2\n".utf8), namespace: file.namespace)) != nil {
            fatalError("one SSHSIG signature verified over two messages")
        }
    }

    /// known_hosts lines (docs/formats.md, "known_hosts"), each line of the input in turn: the
    /// grammar, the key layer, the host-field matchers (patterns, hashed names, [host]:port).
    static func knownHostsLine(_ bytes: [UInt8]) {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0a { end += 1 }
            let line = bytes[start..<end]
            if case .entry(let l)? = try? KnownHostsLine.parse(bytes: line) {
                _ = try? KnownHostsEntry(line: l)
                _ = l.matches(lookup: "host.example")
                _ = l.matches(lookup: "[host.example]:2222")
                _ = l.text
                if let hashed = HashedHostName(field: l.hosts) { _ = HashedNameMatcher(lookup: "host.example").matches(hashed) }
            }
            // The host-field matchers on raw text too (the first token as patterns, the rest as a name).
            let text = String(decoding: line, as: UTF8.self)
            let space = text.firstIndex(of: " ") ?? text.endIndex
            _ = HostPatternList.match(name: String(text[space...]), patterns: String(text[..<space]))
            _ = HostLookupName.parseBracketed(text)
            _ = try? PresentedHostKey.parse(text)
            start = end + 1
        }
    }
}
