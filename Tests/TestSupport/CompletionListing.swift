// What `hostbook __complete commands` prints, read back: each command's words, its options
// and what each positional completes, and the global options (the line starting with `-`).
// The man page and completion tests hold their output to it.
public struct CompletionListing {
    public struct Command {
        public let words: [String]
        public let options: [String]
        /// What each positional completes: hosts, keys, snippets, files or nothing.
        public let positionals: [String]
        public var line: String { words.joined(separator: " ") }
    }

    public var commands: [Command] = []
    public var globals: [String] = []

    public init(_ listing: String) {
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let words = fields.count > 1 ? fields[1].split(separator: " ").map(String.init) : []
            if fields[0] == "-" { globals = words; continue }
            commands.append(Command(words: fields[0].split(separator: " ").map(String.init), options: words,
                                    positionals: fields.count > 2 ? fields[2].split(separator: " ").map(String.init) : []))
        }
    }
}
