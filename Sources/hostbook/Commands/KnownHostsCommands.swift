// `hostbook known-hosts ...`: trust on first use with OpenSSH's decisions
// (docs/openssh-behaviour.md, "Host-key decisions"). One file per command under KnownHosts/.

enum KnownHostsCommands {
    static let all: [CommandSpec] = [
        KnownHostsCheck.spec,
        KnownHostsApprove.spec,
        KnownHostsScan.spec,
        KnownHostsList.spec,
        KnownHostsHistory.spec,
        KnownHostsRemove.spec,
        KnownHostsRevoke.spec,
        KnownHostsRotation.spec,
        KnownHostsImport.spec,
        KnownHostsExport.spec,
    ]
}
