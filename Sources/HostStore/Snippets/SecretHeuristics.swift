// Does a command look like it holds a secret? Such a snippet is still stored, with a
// warning: secrets belong in the vault. The result names the kind of secret only, never
// the text, so the warning cannot echo it.

public enum SecretHeuristics {
    public enum Finding: String, Sendable, CaseIterable {
        case passwordOption = "a password option"
        case passwordVariable = "a password or token variable"
        case accessToken = "an access token"
        case privateKey = "a private key"
        case authorizationHeader = "an Authorization header"
        case urlCredentials = "a password in a URL"
    }

    /// Every kind of secret the command seems to contain, in a fixed order.
    public static func findings(in command: String) -> [Finding] {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { strip(String($0)) }
        let lower = command.lowercased()
        var out = Set<Finding>()

        for (i, w) in words.enumerated() {
            let lw = w.lowercased()
            // a value after --password, --passwd or --pass (with "=" or a space), and -password (mysql, ldapsearch, openssl -pass)
            for flag in ["--password", "--passwd", "--pass", "-password", "-passwd", "--token", "--api-key", "--secret"] {
                if lw.hasPrefix(flag + "=") && lw.count > flag.count + 1 { out.insert(.passwordOption) }
                if lw == flag && i + 1 < words.count && !words[i + 1].hasPrefix("-") { out.insert(.passwordOption) }
            }
            // sshpass -p SECRET / -pSECRET; mysql -pSECRET (a digit after -p is a port, as in ssh -p2222)
            if lw == "-p" && i > 0 && words[i - 1].lowercased().hasSuffix("sshpass") && i + 1 < words.count { out.insert(.passwordOption) }
            if lw.hasPrefix("-p") && lw.count > 2 && !lw.hasPrefix("-p=") {
                let rest = lw.dropFirst(2)
                if let f = rest.first, !f.isNumber, !rest.hasPrefix("-"), rest.count >= 3, lw != "-print", lw != "-prune", lw != "-path", lw != "-perm" {
                    if words.first.map({ ["mysql", "mysqldump", "mariadb", "mysqladmin"].contains($0.lowercased()) }) == true { out.insert(.passwordOption) }
                }
            }
            // PASSWORD=X, DB_PASS=X, GITHUB_TOKEN=X, AWS_SECRET_ACCESS_KEY=X, SSHPASS=X
            if let eq = w.firstIndex(of: "="), eq != w.startIndex, w.index(after: eq) != w.endIndex, !w.hasPrefix("-") {
                let name = w[..<eq].uppercased()
                if name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                   ["PASSWORD", "PASSWD", "TOKEN", "SECRET", "API_KEY", "APIKEY", "SSHPASS"].contains(where: { name.hasSuffix($0) })
                    || name == "PASS" || name.hasSuffix("_PASS") {
                    out.insert(.passwordVariable)
                }
            }
            if let scheme = w.firstRange(of: "://") {
                let afterScheme = w[scheme.upperBound...]
                if let at = afterScheme.firstIndex(of: "@"), afterScheme[..<at].contains(":") { out.insert(.urlCredentials) }
            }
        }
        if containsToken(command) { out.insert(.accessToken) }
        if lower.contains("-----begin") && lower.contains("private key") { out.insert(.privateKey) }
        if lower.contains("authorization: bearer") || lower.contains("authorization: basic") || lower.contains("authorization: token")
            || lower.contains("authorization:bearer") || lower.contains("x-api-key:") {
            out.insert(.authorizationHeader)
        }
        return Finding.allCases.filter { out.contains($0) }
    }

    /// Well-known token shapes anywhere in the text (after a non-alphanumeric character):
    /// GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab (glpat-), Slack (xox?-),
    /// OpenAI-style sk-, AWS access key ids (AKIA/ASIA + 16 upper-case letters or digits).
    static func containsToken(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func isTokenByte(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7a) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        }
        func isAlnum(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7a) }
        let shapes: [(prefix: String, min: Int)] = [
            ("ghp_", 30), ("gho_", 30), ("ghu_", 30), ("ghs_", 30), ("ghr_", 30), ("github_pat_", 30),
            ("glpat-", 20), ("sk-", 32), ("xoxb-", 10), ("xoxp-", 10), ("xoxa-", 10), ("xoxr-", 10), ("xoxs-", 10),
        ]
        for i in b.indices where i == 0 || !isAlnum(b[i - 1]) {
            for shape in shapes {
                let p = Array(shape.prefix.utf8)
                guard i + p.count <= b.count, Array(b[i..<(i + p.count)]) == p else { continue }
                var n = 0
                while i + p.count + n < b.count, isTokenByte(b[i + p.count + n]) { n += 1 }
                if n >= shape.min { return true }
            }
            for p in ["AKIA", "ASIA"].map({ Array($0.utf8) }) where i + 20 <= b.count && Array(b[i..<(i + 4)]) == p {
                let rest = b[(i + 4)..<(i + 20)]
                let after = i + 20 < b.count ? b[i + 20] : 0x20
                if rest.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5a) }) && !isAlnum(after) { return true }
            }
        }
        return false
    }

    /// Drops shell quoting around a word: 'x', "x".
    static func strip(_ w: String) -> String {
        var s = Substring(w)
        while let f = s.first, f == "'" || f == "\"" { s = s.dropFirst() }
        while let l = s.last, l == "'" || l == "\"" { s = s.dropLast() }
        return String(s)
    }
}
