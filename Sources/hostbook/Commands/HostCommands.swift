// Host commands at the top level: add, edit, remove, list, show (docs/command-line.md,
// "Commands"). Each lives in Commands/Hosts/.

enum HostCommands {
    static let all: [CommandSpec] = [HostAdd.spec, HostEdit.spec, HostRemove.spec, HostList.spec, HostShow.spec]
}
