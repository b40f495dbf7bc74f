// What the data of a sign request is, as the agent tells it apart before it signs:
// ssh-agent.c process_sign_request2 and check_websafe_message_contents ask
// parse_userauth_request first, then parse_sshsig_request. The caller's policy decides on it
// (a key restricted to SSHSIG namespaces signs only `.sshsig` in them).
public import KeyFormats

public enum SignedData: Sendable, Equatable {
    /// Public-key user authentication to a server (RFC 4252 §7).
    case userAuthentication(UserAuthRequest)
    /// An SSHSIG signature (`ssh-keygen -Y sign`, git).
    case sshsig(SSHSIGRequest)
    /// Anything else (`ssh-add -T`'s test data, another program's bytes).
    case unidentified

    public init(_ data: [UInt8]) {
        if let auth = UserAuthRequest.parse(data) {
            self = .userAuthentication(auth)
        } else if let sshsig = SSHSIGRequest.parse(data) {
            self = .sshsig(sshsig)
        } else {
            self = .unidentified
        }
    }
}
