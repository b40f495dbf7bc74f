// `hostbook git ...`: git signing with saved keys. One file per command under Git/.

enum GitCommands {
    static let all: [CommandSpec] = [
        GitSetup.spec,
    ]
}
