// The words of the import's file-wide notes (Workflows' SSHConfigFileNote), as the report
// (text and --json) prints them among its notes.
import HostStore
import Workflows

extension SSHConfigFileNote {
    var note: ImportNote {
        switch self {
        case .hostPattern(let patterns, let file, let line):
            "Host \(patterns.joined(separator: " ")) (\(file) line \(line)): a pattern, not a host; what hostbook keeps of its settings was imported into the hosts it matches, and the rest still applies from your file"
        case .matchLine(let text, let file, let line):
            "Match \(text) (\(file) line \(line)): a conditional block; hostbook imported the settings it gave each host, not the condition"
        case .unmatchedInclude(let pattern, let file, let line):
            "Include \(pattern) (\(file) line \(line)) matched no files (ssh skips it too)"
        case .permissions(let path, let reason):
            "\(path): \(reason); ssh refuses such a file as ~/.ssh/config or an Include ('Bad owner or permissions')"
        case .hostbookOwnConfiguration(let files):
            "\(files.joined(separator: ", ")): hostbook's own generated configuration ('hostbook ssh-config --install'); not read, its hosts are hostbook's already"
        case .noConcreteHost(let path):
            "\(path) names no concrete Host (only patterns or none at all); nothing to import"
        }
    }
}
