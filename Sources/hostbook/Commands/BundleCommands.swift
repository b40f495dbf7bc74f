// `hostbook bundle ...`: team bundles, signed with SSHSIG and shared through git. One file
// per command under Bundle/; the work is Sessions' (Sources/Sessions/Bundles) and
// HostStore's (Sources/HostStore/Bundles).

enum BundleCommands {
    static let all: [CommandSpec] = [
        BundleExport.spec,
        BundleTrust.spec,
        BundleImport.spec,
        BundleSubscribe.spec,
        BundleUpdate.spec,
        BundleList.spec,
        BundleUnsubscribe.spec,
        BundleUntrust.spec,
    ]
}
