enum SnippetsCommands {
    static let all: [CommandSpec] = []
}
