enum VaultCommands {
    static let all: [CommandSpec] = []
}
