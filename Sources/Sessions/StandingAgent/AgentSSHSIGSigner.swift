// One SSHSIG signature (KeyFormats' SSHSignatureFile) made through an ssh agent, as
// `ssh-keygen -Y sign` makes it with a key the agent holds: the signed data of
// PROTOCOL.sshsig §3 in an SSH_AGENTC_SIGN_REQUEST (AgentSignatureRequest), RSA with
// rsa-sha2-512 as sshsig.c signs it, and the answer checked before it is returned. hostbook
// holds no private key itself. The one owner of what each agent answer means (a
// SessionRefusal case each): team bundles (BundleSignature) and git's signatures
// (GitSignatureProgram) sign here.
import Agent
public import KeyFormats

public enum AgentSSHSIGSigner {
    /// Signs `message` in `namespace` with `publicKey` through the first agent of `sockets`
    /// that listens (a later one is tried only when nothing answers at the one before).
    /// `keyName` names the key in errors; `purpose` says what is signed through the agent
    /// ("bundles", "git commits and tags"). Failures are SessionRefusals (`agent...`): the
    /// executable words them and their fix.
    public static func sign(_ message: [UInt8], by publicKey: PublicKey, keyName: String, namespace: String,
                            sockets: [String], purpose: String,
                            hashAlgorithm: String = SSHSIGRequest.defaultHashAlgorithm) throws -> SSHSignatureFile {
        let data = try SSHSignatureFile.signedData(namespace: namespace, message: message, hashAlgorithm: hashAlgorithm)
        let flags: UInt32 = { if case .rsa = publicKey.algorithm { return AgentSignFlags.rsaSHA512 } else { return 0 } }()
        var answer = AgentSignatureRequest.Answer.notRunning
        var socket = sockets.first ?? ""
        for candidate in sockets {
            socket = candidate
            answer = AgentSignatureRequest.sign(at: candidate, keyBlob: publicKey.blob, data: data, flags: flags)
            if answer != .notRunning { break }
        }
        switch answer {
        case .notRunning:
            throw SessionRefusal.agentNotRunning(socket: socket, purpose: purpose)
        case .noAnswer:
            throw SessionRefusal.agentDidNotAnswer(socket: socket)
        case .refused:
            if case .keys(let listed) = AgentKeyListing.keys(at: socket), listed.isEmpty {
                throw SessionRefusal.agentLocked(socket: socket)
            }
            throw SessionRefusal.agentRefusedToSign(key: keyName)
        case .signature(let blob):
            let file = SSHSignatureFile.wrap(signature: blob, by: publicKey, namespace: namespace, hashAlgorithm: hashAlgorithm)
            do { _ = try file.verify(message: message, namespace: namespace) } catch {
                throw SessionRefusal.agentSignatureDoesNotVerify(key: keyName, reason: "\(error)")
            }
            return file
        }
    }
}
