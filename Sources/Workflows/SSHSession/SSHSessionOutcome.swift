// What one `hostbook ssh` session came to, once ssh has ended: the executable says each part,
// in this order (the rotation's lines, then the vault's failure, then the password hint) and
// exits with ssh's status.
public struct SSHSessionOutcome {
    /// ssh's exit status (255 for ssh's own errors, else the remote command's).
    public let exitStatus: Int32
    /// What each hop's rotation file taught the store, in hop order (SSHRotationLearning).
    public let rotation: [SSHRotationEvent]
    /// The vault's failure while the session's secrets were read (it stopped ssh): the
    /// session's outcome instead of ssh's status.
    public let secretsFailure: (any Error)?
    /// The saved host whose stored password ssh was given last, when ssh then failed with
    /// 255: ssh says only "Permission denied (password)", and only hostbook knows the
    /// password was its own.
    public let passwordGivenBeforeFailure: String?
}
