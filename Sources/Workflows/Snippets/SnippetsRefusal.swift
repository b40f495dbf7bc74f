// Every refusal of the snippet workflows that is not the store's own, as data. The program
// words each one (hostbook/Commands/Snippets/SnippetsRefusal+Presentation.swift).
public enum SnippetsRefusal: Error, Equatable {
    /// No snippet has this name.
    case notFound(String)
    /// Standard input could not be read, and why.
    case commandUnreadable(reason: String)
    /// The command on standard input is over SnippetCommandText.stdinLimit.
    case commandTooLong
}
