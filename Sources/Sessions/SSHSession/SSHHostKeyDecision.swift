// The host-key side of `hostbook ssh`'s configuration: the tokens ssh hands hostbook's
// KnownHostsCommand (sshconnect.c load_hostkeys_command; docs/openssh-behaviour.md,
// "KnownHostsCommand"), the one place that command asks the trust core for a decision,
// the one decision a connection plan makes for each hop, and the HostKeyAlgorithms
// preference of each hop. The command itself (`hostbook
// known-hosts lookup`: its arguments, the approval prompt, the lines it prints) is the
// executable's SSHHostKeyLookup.
public import HostStore
public import KeyFormats

public enum SSHHostKeyDecision {
    /// The ssh tokens after the command words, in the order the lookup command reads them.
    public static let tokens = ["%I", "%H", "%h", "%p", "%t", "%K", "%n"]

    /// The one place `hostbook ssh` asks for a host-key decision: host, port and key in,
    /// the trust core's answer out.
    public static func decide(_ store: KnownHostsStore, host: String, port: Int, key: PresentedHostKey) throws -> KnownHostsStore.Check {
        try store.check(HostLookupName(host: host, port: port), presented: key)
    }

    /// The signature algorithms of the keys trusted for host:port, for `HostKeyAlgorithms
    /// ^LIST` (those first, ssh's defaults after), which does what the ORDER run would and
    /// spares ssh that run. Empty when nothing plain is trusted (certificate authorities
    /// and unknown hosts keep the ORDER run). Which keys are known, and the `[host]:port`
    /// fallback to the bare name, are the store's answer.
    public static func preferredAlgorithms(_ store: KnownHostsStore, host: String, port: Int) throws -> [String] {
        let known = try store.knownKeyTypes(HostLookupName(host: host, port: port))
        guard !known.certificateAuthority else { return [] }
        var algorithms: [String] = []
        for type in known.types {
            let names = type == PublicKey.rsaType ? ["rsa-sha2-512", "rsa-sha2-256"] : [type]
            for n in names where !algorithms.contains(n) { algorithms.append(n) }
        }
        return algorithms
    }

    /// The host keys the trust core accepts for host:port as the store holds them now, as
    /// values, in one decision (KnownHostsStore.acceptedPlainKeys): a key also revoked (an
    /// `@revoked` line, a pattern's included) is not among them. Empty when a certificate
    /// authority covers the name: a certificate is then decided by the trust core, at
    /// connection time.
    public static func acceptedKeys(_ store: KnownHostsStore, host: String, port: Int) throws -> [PublicKey] {
        try store.acceptedPlainKeys(HostLookupName(host: host, port: port))
    }
}
