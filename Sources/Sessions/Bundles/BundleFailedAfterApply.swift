// An error a subscription met after its bundle was written to the database (recording the
// subscription or the applied commit, a vault password left over): the caller reports it
// as a failure after changes, so the installed ssh configuration still shows what the
// database holds (docs/command-line.md, "bundle").
public struct BundleFailedAfterApply: Error {
    public let underlying: any Error

    public init(underlying: any Error) {
        self.underlying = underlying
    }
}
