enum KeysCommands {
    static let all: [CommandSpec] = []
}
