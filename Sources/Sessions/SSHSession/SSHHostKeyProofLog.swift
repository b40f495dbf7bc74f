// What ssh's log says about the proof of the host keys a server announced (docs/known-hosts.md,
// "Rotation"; clientloop.c, OpenSSH 9.2). With UpdateHostKeys, ssh asks the server to prove
// each new key it announced (`hostkeys-prove-00@openssh.com`). A server that cannot sign
// with a key it announces ends the session there: sshd's signature through its HostKeyAgent
// is fatal ("agent sign failed"), and ssh only says "Connection to HOST closed by remote
// host."; a server that answers the request with a failure or a bad signature makes ssh say
// "Server failed to confirm ownership of private host keys" or "server gave bad signature",
// and the session goes on. Either way ssh learns nothing, and neither says what the user or
// the server's administrator should do.
//
// A `hostbook ssh` session whose target learns its rotation runs ssh with its log on a pipe
// hostbook reads (`-E`, SSHLogRelay) and with `LogVerbose` naming the function that asks
// for the proof (client_input_hostkeys), so ssh logs "asking server to prove ownership for N
// keys" whatever its LogLevel. Every line is shown as ssh wrote it, except those forced
// lines (unless the user asked for ssh's debug output with -v); the session then words the
// outcome (SSHRotationReport).

public struct SSHHostKeyProofLog: Sendable {
    /// The `LogVerbose` value: the lines of the function that asks for the proof.
    public static let logVerbose = "clientloop.c:client_input_hostkeys():*"

    /// How many new keys ssh asked the server to prove.
    public private(set) var keysAsked = 0
    /// ssh said the server refused the proof or gave a bad signature.
    public private(set) var refused = false
    /// Whether the forced lines are shown (the user asked for ssh's debug output).
    public let showsForcedLines: Bool

    public init(showsForcedLines: Bool) {
        self.showsForcedLines = showsForcedLines
    }

    /// Reads one line of ssh's log (without its newline); returns whether it is shown.
    public mutating func read(_ line: Substring) -> Bool {
        // A forced line: "debug3: clientloop.c:client_input_hostkeys():2468 (pid=1408): TEXT".
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        if parts.count == 4, parts[0].hasPrefix("debug"), parts[0].hasSuffix(":"),
           parts[1].hasPrefix("clientloop.c:client_input_hostkeys():"), parts[2].hasPrefix("(pid="), parts[2].hasSuffix("):") {
            let words = parts[3].split(separator: " ")
            if words.count == 8, words[0] == "asking", words[1] == "server", words[4] == "ownership", let n = Int(words[6]) {
                keysAsked += n
            }
            return showsForcedLines
        }
        if line.contains("Server failed to confirm ownership of private host keys") || line.contains("server gave bad signature for") {
            refused = true
        }
        return true
    }

    /// Whether ssh's log may be read for a session run with `arguments` (what follows the
    /// destination; ssh reads options there until the first other word): not when they
    /// send the log elsewhere themselves (-E, -y) or name LogVerbose.
    public static func allowed(sshArguments arguments: [String]) -> Bool {
        if arguments.contains(where: { $0.lowercased().contains("logverbose") }) { return false }
        return !optionLetters(arguments).contains { $0 == "E" || $0 == "y" }
    }

    /// Whether the user asked for ssh's debug output (-v).
    public static func verbose(sshArguments arguments: [String]) -> Bool {
        optionLetters(arguments).contains("v")
    }

    /// The option letters ssh reads from `arguments` (ssh.c's getopt string, OpenSSH 9.2).
    static func optionLetters(_ arguments: [String]) -> [Character] {
        let takesValue = Set("bceilmopBDEFIJLOPQRSwW")
        var letters: [Character] = []
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            guard word.hasPrefix("-"), word != "-", word != "--" else { break }
            for (n, letter) in word.dropFirst().enumerated() {
                letters.append(letter)
                if takesValue.contains(letter) {
                    if n == word.count - 2 { i += 1 }
                    break
                }
            }
            i += 1
        }
        return letters
    }
}
