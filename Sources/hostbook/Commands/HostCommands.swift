enum HostCommands {
    static let all: [CommandSpec] = []
}
