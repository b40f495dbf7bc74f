// The text layer of a PuTTY .ppk file (docs/formats.md, "PuTTY .ppk"), read strictly in PuTTY's
// order; LF, CRLF and CR line ends are accepted:
//
//     PuTTY-User-Key-File-<2|3>: <algorithm>
//     Encryption: none | aes256-cbc
//     Comment: <text to end of line>
//     Public-Lines: N, then N lines of base64
//     [v3 encrypted: Key-Derivation, Argon2-Memory, Argon2-Passes, Argon2-Parallelism, Argon2-Salt]
//     Private-Lines: N, then N lines of base64
//     Private-MAC: <hex>
import SecureMemory

struct PPKEnvelope {
    enum Version: Int { case v2 = 2, v3 = 3 }

    struct Argon2Parameters {
        enum Flavour: String { case argon2id = "Argon2id", argon2i = "Argon2i", argon2d = "Argon2d" }
        let flavour: Flavour
        /// KiB, as the file says.
        let memory: UInt64
        let passes: UInt64
        let parallelism: UInt64
        let salt: [UInt8]
    }

    let version: Version
    let algorithm: String
    /// `none` or `aes256-cbc`.
    let encryption: String
    let comment: String
    let publicBlob: [UInt8]
    let argon2: Argon2Parameters?
    /// The private blob as stored (encrypted when `isEncrypted`).
    let privateBlob: SecretBytes
    let mac: [UInt8]

    var isEncrypted: Bool { encryption != "none" }

    static let headerPrefix = "PuTTY-User-Key-File-"
    /// More lines than any real key needs (a 16384-bit RSA key is ~50 private lines).
    static let maximumLines = 1024

    static func parse(_ bytes: [UInt8]) throws -> PPKEnvelope { try bytes.withUnsafeBytes { try parse($0) } }

    /// Reads the envelope from the file as the caller holds it (secure memory for a key
    /// being imported): the fields become text, the private lines are decoded from their
    /// place in `bytes` straight into secure memory.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> PPKEnvelope {
        var lines = Lines(ByteLines(bytes))

        let (headerName, algorithm) = try lines.field(nil, what: "the header line")
        guard headerName.hasPrefix(headerPrefix) else {
            throw KeyFormatError.invalid("not a PuTTY key file: the first line does not start with '\(headerPrefix)'")
        }
        let versionText = headerName.dropFirst(headerPrefix.count)
        guard let number = Int(versionText), let version = Version(rawValue: number) else {
            throw KeyFormatError.unsupported("PuTTY key file version '\(versionText.prefix(8))' is not supported (only 2 and 3 exist)")
        }

        let encryption = try lines.value("Encryption")
        guard encryption == "none" || encryption == "aes256-cbc" else {
            throw KeyFormatError.unsupported("PuTTY key encryption '\(encryption.prefix(40))' is not supported (only none and aes256-cbc exist)")
        }
        let comment = try lines.value("Comment")
        guard let publicBlob = Base64.decode(Array(try lines.block("Public-Lines").utf8)) else {
            throw KeyFormatError.invalid("the public key lines are not valid base64")
        }

        var argon2: Argon2Parameters? = nil
        if version == .v3 && encryption != "none" {
            let kdf = try lines.value("Key-Derivation")
            guard let flavour = Argon2Parameters.Flavour(rawValue: kdf) else {
                throw KeyFormatError.unsupported("PuTTY key derivation '\(kdf.prefix(40))' is not supported (expected Argon2id, Argon2i or Argon2d)")
            }
            let memory = try lines.number("Argon2-Memory")
            let passes = try lines.number("Argon2-Passes")
            let parallelism = try lines.number("Argon2-Parallelism")
            guard let salt = Hex.decode(try lines.value("Argon2-Salt")) else {
                throw KeyFormatError.invalid("Argon2-Salt is not hexadecimal")
            }
            argon2 = Argon2Parameters(flavour: flavour, memory: memory, passes: passes, parallelism: parallelism, salt: salt)
        }

        guard let privateBlob = try? SecretBase64.decode(try lines.blockViews("Private-Lines"), strict: true) else {
            throw KeyFormatError.invalid("the private key lines are not valid base64")
        }
        let macText = try lines.value("Private-MAC")
        let macLength = version == .v3 ? 32 : 20
        guard let mac = Hex.decode(macText), mac.count == macLength else {
            throw KeyFormatError.invalid("Private-MAC is not \(macLength * 2) hexadecimal digits")
        }
        return PPKEnvelope(version: version, algorithm: algorithm, encryption: encryption, comment: comment,
                           publicBlob: publicBlob, argon2: argon2, privateBlob: privateBlob, mac: mac)
    }

    /// The file's lines, consumed in order.
    private struct Lines {
        let all: ByteLines
        var index = 0

        init(_ all: ByteLines) { self.all = all }

        /// The next `Name: value` line. With `name` nil, any name is accepted.
        mutating func field(_ name: String?, what: String) throws -> (String, String) {
            guard index < all.count else {
                throw KeyFormatError.invalid("the PuTTY key file ends before \(what) (truncated)")
            }
            let line = all.text(all[index])
            guard let colon = line.firstRange(of: ": ") else {
                throw KeyFormatError.invalid("expected \(what) in the PuTTY key file, found a line without 'Name: value'")
            }
            let found = String(line[..<colon.lowerBound])
            if let name, found != name {
                throw KeyFormatError.invalid("expected '\(name):' in the PuTTY key file, found '\(found.prefix(40)):'")
            }
            index += 1
            return (found, String(line[colon.upperBound...]))
        }

        mutating func value(_ name: String) throws -> String {
            try field(name, what: "'\(name):'").1
        }

        mutating func number(_ name: String) throws -> UInt64 {
            let text = try value(name)
            guard text.count <= 19, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt64(text) else {
                throw KeyFormatError.invalid("'\(name)' is not a number")
            }
            return n
        }

        /// `Name: N` followed by N lines, as views of the file (never copied).
        mutating func blockViews(_ name: String) throws -> [Slice<UnsafeRawBufferPointer>] {
            let count = try number(name)
            guard count <= UInt64(PPKEnvelope.maximumLines) else {
                throw KeyFormatError.invalid("'\(name)' is \(count); more lines than any key needs")
            }
            guard index + Int(count) <= all.count else {
                throw KeyFormatError.invalid("the PuTTY key file ends inside the \(name) (truncated)")
            }
            defer { index += Int(count) }
            return all.ranges[index..<index + Int(count)].map { all.view($0) }
        }

        /// `Name: N` followed by N lines of public text, joined.
        mutating func block(_ name: String) throws -> String {
            try blockViews(name).map { String(decoding: $0, as: UTF8.self) }.joined()
        }
    }
}
