// hostbook as git's `gpg.ssh.program` (set by `hostbook git setup`): git runs it exactly as it
// runs ssh-keygen (gpg-interface.c), with no shell and no arguments of its own, so hostbook
// answers when its first argument is `-Y`. This file owns the one operation hostbook does
// itself, `-Y sign`:
//   -Y sign -n NAMESPACE -f KEYFILE [-U] [-q] [-O hashalg=sha256|sha512] [FILE ...]
// Each FILE is signed to FILE.sig (git 2.39 signs its buffer file and reads `.sig` beside
// it); no FILE, or `-`, signs standard input to standard output. KEYFILE is the public key
// (`.pub` line) of a key the agent holds; the signature is made through the standing agent
// (AgentSSHSIGSigner), found at its own socket, so no SSH_AUTH_SOCK is needed and no key is
// on disk. A KEYFILE that is not a public key (a private key file) is the real ssh-keygen's
// business, as are `-Y verify`, `-Y find-principals` and `-Y check-novalidate`: the
// executable hands those to ssh-keygen with the same arguments.
#if canImport(Glibc)
import Glibc
#endif
public import KeyFormats
import System

public enum GitSignatureProgram {
    /// `-Y sign`'s arguments.
    public struct SignRequest: Sendable, Equatable {
        public let namespace: String
        public let keyFile: String
        /// The files to sign; empty: standard input to standard output.
        public let files: [String]
        public let hashAlgorithm: String
    }

    /// The largest message signed: git's commit and tag buffers are far smaller.
    public static let maxMessage = 256 << 20

    /// `argv` (without the program's name) as `-Y sign`, or nil when it asks for another
    /// `-Y` operation (for ssh-keygen). A sign request it cannot read is `.rejected`.
    public static func signRequest(_ argv: [String]) throws -> SignRequest? {
        guard argv.count >= 2, argv[0] == "-Y", argv[1] == "sign" else { return nil }
        var namespace: String?, keyFile: String?, files: [String] = []
        var hashAlgorithm = SSHSIGRequest.defaultHashAlgorithm
        var i = 2
        func value(_ option: String) throws -> String {
            i += 1
            guard i < argv.count else { throw SessionRefusal.signUsage(.needsValue(option: option)) }
            return argv[i]
        }
        while i < argv.count {
            let arg = argv[i]
            switch arg {
            case "-n": namespace = try value("-n")
            case "-f": keyFile = try value("-f")
            case "-U", "-q": break
            case "-O":
                let option = try value("-O")
                guard option.hasPrefix("hashalg=") else { throw SessionRefusal.signUsage(.unsupportedSigningOption(option)) }
                hashAlgorithm = String(option.dropFirst("hashalg=".count))
                guard hashAlgorithm == "sha256" || hashAlgorithm == "sha512" else { throw SessionRefusal.signUsage(.unsupportedHashAlgorithm(hashAlgorithm)) }
            case "--": files += argv[(i + 1)...]; i = argv.count; continue
            default:
                if arg.hasPrefix("-"), arg != "-" { throw SessionRefusal.signUsage(.unsupportedOption(arg)) }
                files.append(arg)
            }
            i += 1
        }
        guard let namespace, !namespace.isEmpty else { throw SessionRefusal.signUsage(.missingNamespace) }
        guard let keyFile else { throw SessionRefusal.signUsage(.missingKeyFile) }
        return SignRequest(namespace: namespace, keyFile: keyFile, files: files, hashAlgorithm: hashAlgorithm)
    }

    /// The public key in `path` (a `.pub` line), or nil when the file holds something else
    /// (a private key: ssh-keygen's business). A file that cannot be read is `.failed`.
    public static func publicKey(in path: String) throws -> PublicKeyLine? {
        let bytes = try read(path, limit: 64 * 1024, keyFile: true)
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return try? PublicKeyLine.parse(text)
    }

    /// Signs what `request` names with `key` through the first agent of `sockets` that
    /// answers: each file to FILE.sig, or standard input to standard output.
    public static func sign(_ request: SignRequest, key: PublicKeyLine, sockets: [String]) throws {
        let name = key.comment.isEmpty ? key.key.sha256Fingerprint : key.comment
        func signature(_ message: [UInt8]) throws -> [UInt8] {
            try AgentSSHSIGSigner.sign(message, by: key.key, keyName: name, namespace: request.namespace,
                                       sockets: sockets, purpose: "git commits and tags", hashAlgorithm: request.hashAlgorithm).armored
        }
        if request.files.isEmpty || request.files == ["-"] {
            let message: [UInt8]
            do { message = try FileDescriptor.standardInput.readToEnd(limit: maxMessage) } catch {
                throw SessionRefusal.signInputNotRead(reason: "\(error)")
            }
            do { try FileDescriptor.standardOutput.writeAll(try signature(message)) } catch let e as SessionRefusal { throw e } catch {
                throw SessionRefusal.signatureNotWritten(reason: "\(error)")
            }
            return
        }
        for file in request.files {
            let armored = try signature(try read(file, limit: maxMessage, keyFile: false))
            do { try AtomicFile.write(file + ".sig", bytes: armored, mode: 0o644, replace: true) } catch {
                throw SessionRefusal.signatureFileNotWritten(file: file, reason: "\(error)")
            }
        }
    }

    private static func read(_ path: String, limit: Int, keyFile: Bool) throws -> [UInt8] {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(forReading: path) } catch {
            throw SessionRefusal.signFileNotRead(keyFile: keyFile, path: path, opening: true, limit: nil, reason: "\(error)")
        }
        defer { file.close() }
        do { return try file.readToEnd(limit: limit) } catch {
            throw SessionRefusal.signFileNotRead(keyFile: keyFile, path: path, opening: false, limit: error == .tooLong ? limit : nil, reason: "\(error)")
        }
    }
}
