// What an ssh_config import says about the configuration as a whole, as data (the
// executable words each note, SSHConfigFileNote+Presentation.swift): a Host pattern or a
// Match line is a rule hostbook does not keep, an Include that matched nothing, a file ssh
// would refuse for its permissions, hostbook's own installed configuration left unread, or
// no concrete Host at all.
public enum SSHConfigFileNote: Sendable, Equatable {
    case hostPattern(patterns: [String], file: String, line: Int)
    case matchLine(text: String, file: String, line: Int)
    case unmatchedInclude(pattern: String, file: String, line: Int)
    case permissions(path: String, reason: String)
    /// The files of hostbook's own generated configuration, which the import does not read.
    case hostbookOwnConfiguration(files: [String])
    /// The file (`path`) names only patterns, or no Host at all.
    case noConcreteHost(path: String)
}
