enum KnownHostsCommands {
    static let all: [CommandSpec] = []
}
