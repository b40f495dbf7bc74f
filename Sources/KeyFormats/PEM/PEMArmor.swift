// The PEM text envelope (RFC 7468, with the RFC 1421 headers that OpenSSL's "traditional"
// encrypted keys carry; ssh-formats.md §4.1):
//
//     -----BEGIN LABEL-----
//     Proc-Type: 4,ENCRYPTED          (optional headers, then an empty line)
//     DEK-Info: AES-128-CBC,<IV hex>
//
//     <base64>
//     -----END LABEL-----
//
// LF, CRLF and CR line ends are accepted; lines before BEGIN are skipped; the END label
// must equal the BEGIN label; anything after END is ignored (as OpenSSL does).
import SecureMemory

struct PEMArmor {
    let label: String
    let headers: [(name: String, value: String)]
    /// The decoded body. It is a private key's DER, so it lives in secure memory.
    let body: SecretBytes

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    static let beginPrefix = "-----BEGIN "

    /// True when a line of the first few kilobytes starts a PEM private key block, after
    /// any preamble (what PrivateKeyFile.detect accepts besides a file starting with BEGIN).
    static func containsPrivateKeyBlock(_ bytes: [UInt8]) -> Bool {
        TextLines.split(Array(bytes.prefix(4096))).contains {
            let line = TextLines.trimmed($0)
            return line.hasPrefix(beginPrefix) && line.hasSuffix("PRIVATE KEY" + dashes)
        }
    }

    static let endPrefix = "-----END "
    static let dashes = "-----"

    static func parse(_ bytes: [UInt8]) throws -> PEMArmor {
        let lines = TextLines.split(bytes)
        var i = 0
        // Text before the BEGIN line is skipped, as OpenSSL does (e.g. the "Bag Attributes"
        // lines `openssl pkcs12 -nodes` writes before each key).
        while i < lines.count, !TextLines.trimmed(lines[i]).hasPrefix(beginPrefix) { i += 1 }
        guard i < lines.count else {
            if lines.allSatisfy({ TextLines.trimmed($0).isEmpty }) { throw KeyFormatError.invalid("the file is empty") }
            throw KeyFormatError.invalid("not a PEM file: no '-----BEGIN ...-----' line")
        }
        let first = TextLines.trimmed(lines[i])
        guard first.hasSuffix(dashes), first.count > beginPrefix.count + dashes.count else {
            throw KeyFormatError.invalid("not a PEM file: the BEGIN line is not '-----BEGIN ...-----'")
        }
        let label = String(first.dropFirst(beginPrefix.count).dropLast(dashes.count))
        i += 1

        // RFC 1421 headers: "Name: value" lines (continued by lines starting with space
        // or tab), ended by an empty line.
        var headers: [(name: String, value: String)] = []
        while i < lines.count {
            let line = lines[i]
            if let colon = line.firstIndex(of: ":"), !line.hasPrefix(dashes) {
                let name = String(line[..<colon])
                var value = TextLines.trimmed(line[line.index(after: colon)...])
                i += 1
                while i < lines.count, let c = lines[i].first, c == " " || c == "\t" {
                    value += TextLines.trimmed(lines[i]); i += 1
                }
                headers.append((name, value))
                if headers.count > 32 { throw KeyFormatError.invalid("the PEM block has too many header lines") }
                continue
            }
            if !headers.isEmpty, TextLines.trimmed(line).isEmpty { i += 1 }
            break
        }

        var base64: [UInt8] = []
        var ended = false
        while i < lines.count {
            let line = TextLines.trimmed(lines[i])
            i += 1
            if line.hasPrefix(endPrefix) {
                guard line == endPrefix + label + dashes else {
                    throw KeyFormatError.invalid("the PEM END line does not match '-----BEGIN \(label.prefix(40))-----'")
                }
                ended = true
                break
            }
            base64.append(contentsOf: line.utf8)
        }
        guard ended else { throw KeyFormatError.invalid("the PEM block has no END line (the file is truncated)") }
        guard var der = Base64.decode(base64) else {
            throw KeyFormatError.invalid("the PEM body is not valid base64")
        }
        guard !der.isEmpty else { throw KeyFormatError.invalid("the PEM body is empty") }
        let body = SecretBytes(consuming: &der)
        return PEMArmor(label: label, headers: headers, body: body)
    }
}
