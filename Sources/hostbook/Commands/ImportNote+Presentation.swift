// The words of the imports' notes (HostStore's ImportNote, and a Tailscale host key left
// untrusted): the importer's line, then the hostbook command that fixes it, the way the
// import reports (text and --json) have always put it. Outside text in a note is escaped
// where it is printed (TerminalText).
import CommandLineKit
import HostStore

extension ImportNote {
    /// The note as the report shows it.
    var line: String { text + (remedy.map(Self.words) ?? "") }

    /// The remedy, as the end of a note's line.
    static func words(_ remedy: Remedy) -> String {
        switch remedy {
        case .importKeyThenImportAgain(let path): "; import it with 'hostbook keys import \(path)' and import the config again"
        case .removeHost(let name): " (remove it with 'hostbook remove \(name)')"
        case .knownHostsCheckStillApplies: "; 'hostbook known-hosts check' still applies them"
        case .approveReplacing: "; decide with 'hostbook known-hosts approve --replace'"
        case .proxyJumpOrAddWithJump(let name): "; use ProxyJump in the file, or add it with 'hostbook add \(name) --hostname H --jump JUMP'"
        }
    }
}

extension TailscaleKeyProblem {
    /// Why the key was not trusted, with the fix that is a hostbook command.
    var reasonLine: String { reason + (remedy.map(ImportNote.words) ?? "") }
}
