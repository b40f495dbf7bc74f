// The PEM text envelope (RFC 7468, with the RFC 1421 headers that OpenSSL's "traditional"
// encrypted keys carry; docs/formats.md, "PEM and PKCS#8"):
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
    static func containsPrivateKeyBlock(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let lines = ByteLines(UnsafeRawBufferPointer(rebasing: bytes.prefix(4096)))
        return lines.ranges.contains {
            let line = lines.trimmed($0)
            return lines.starts(line, with: beginPrefix) && lines.ends(line, with: "PRIVATE KEY" + dashes)
        }
    }

    static let endPrefix = "-----END "
    static let dashes = "-----"

    static func parse(_ bytes: [UInt8]) throws -> PEMArmor { try bytes.withUnsafeBytes { try parse($0) } }

    /// Reads the block from the file as the caller holds it (secure memory for a private
    /// key): the BEGIN, header and END lines become text, the base64 lines are decoded
    /// from their place in `bytes` straight into secure memory.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> PEMArmor {
        let lines = ByteLines(bytes)
        var i = 0
        // Text before the BEGIN line is skipped, as OpenSSL does (e.g. the "Bag Attributes"
        // lines `openssl pkcs12 -nodes` writes before each key).
        while i < lines.count, !lines.starts(lines.trimmed(lines[i]), with: beginPrefix) { i += 1 }
        guard i < lines.count else {
            if lines.ranges.allSatisfy({ lines.trimmed($0).isEmpty }) { throw KeyFormatError.invalid("the file is empty") }
            throw KeyFormatError.invalid("not a PEM file: no '-----BEGIN ...-----' line")
        }
        let first = lines.text(lines.trimmed(lines[i]))
        guard first.hasSuffix(dashes), first.count > beginPrefix.count + dashes.count else {
            throw KeyFormatError.invalid("not a PEM file: the BEGIN line is not '-----BEGIN ...-----'")
        }
        let label = String(first.dropFirst(beginPrefix.count).dropLast(dashes.count))
        i += 1

        // RFC 1421 headers: "Name: value" lines (continued by lines starting with space
        // or tab), ended by an empty line. A base64 line has no ':', so it stays bytes.
        var headers: [(name: String, value: String)] = []
        while i < lines.count {
            let line = lines[i]
            if let colon = lines.firstIndex(of: UInt8(ascii: ":"), in: line), !lines.starts(line, with: dashes) {
                let name = lines.text(line.lowerBound..<colon)
                var value = lines.text(lines.trimmed(colon + 1..<line.upperBound))
                i += 1
                while i < lines.count, let c = lines[i].first.map({ bytes[$0] }), c == 0x20 || c == 0x09 {
                    value += lines.text(lines.trimmed(lines[i])); i += 1
                }
                headers.append((name, value))
                if headers.count > 32 { throw KeyFormatError.invalid("the PEM block has too many header lines") }
                continue
            }
            if !headers.isEmpty, lines.trimmed(line).isEmpty { i += 1 }
            break
        }

        var base64: [Slice<UnsafeRawBufferPointer>] = []
        var ended = false
        while i < lines.count {
            let line = lines.trimmed(lines[i])
            i += 1
            if lines.starts(line, with: endPrefix) {
                guard lines.equals(line, endPrefix + label + dashes) else {
                    throw KeyFormatError.invalid("the PEM END line does not match '-----BEGIN \(label.prefix(40))-----'")
                }
                ended = true
                break
            }
            base64.append(lines.view(line))
        }
        guard ended else { throw KeyFormatError.invalid("the PEM block has no END line (the file is truncated)") }
        guard let body = try? SecretBase64.decode(base64, strict: true) else {
            throw KeyFormatError.invalid("the PEM body is not valid base64")
        }
        guard !body.isEmpty else { throw KeyFormatError.invalid("the PEM body is empty") }
        return PEMArmor(label: label, headers: headers, body: body)
    }
}
