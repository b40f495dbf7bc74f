// OpenSSH's own ssh-sk-helper, run once per operation as ssh and ssh-agent run it: it
// loads the provider it is told (`internal`: the USB HID provider built into Debian's
// OpenSSH over libfido2), talks to the authenticator and answers. The exchange (ssh-sk-
// client.c / ssh-sk-helper.c, helper protocol version 5 in OpenSSH 8.9 to 9.x): one
// message each way, `uint32 length`, `byte version`, then
//   request: uint32 type, byte log-to-stderr, uint32 log level, the type's fields;
//   reply:   uint32 type (0: error, with uint32 the negated ssherr code), the type's fields.
// The PIN goes in the request on the helper's stdin, never in argv or the environment.
public import KeyFormats
public import SecureMemory
import System
#if canImport(Glibc)
import Glibc
#endif

public struct SSHSKHelper: SecurityKeyMiddleware {
    /// Where Debian and other systems install it.
    public static let defaultPaths = ["/usr/lib/openssh/ssh-sk-helper", "/usr/libexec/ssh-sk-helper",
                                      "/usr/libexec/openssh/ssh-sk-helper"]
    public static let protocolVersion: UInt8 = 5
    /// What the helper is asked to load: `internal` (its built-in USB provider) or a path.
    public let provider: String
    public let helperPath: String

    enum MessageType: UInt32 { case error = 0, sign = 1, enroll = 2, loadResident = 3 }

    public init(provider: String = "internal", helperPath: String? = nil) throws(SecurityKeyError) {
        self.provider = provider
        if let helperPath {
            self.helperPath = helperPath
        } else if let found = Self.defaultPaths.first(where: ExecutablePath.isExecutableFile) {
            self.helperPath = found
        } else {
            throw .helperMissing(paths: Self.defaultPaths)
        }
    }

    public func sign(_ key: PrivateKey, data: [UInt8], pin: SecretBytes?) throws(SecurityKeyError) -> [UInt8] {
        guard let handle = SecurityKeyHandle(key) else { throw .notSecurityKey }
        var w = SSHWriter()
        // An sk key's record holds its public key, application, flags and handle: nothing secret.
        w.writeString(OpenSSHPrivateKey.record(key).withUnsafeBytes { Array($0) })
        w.writeString(provider)
        w.writeString(data)
        w.writeString("")      // signature algorithm: the key's own
        w.writeUInt32(0)       // compatibility flags
        var reply = try converse(.sign, [.plain(w.bytes), .secretString(pin)])
        do {
            let signature = try reply.readString()
            guard reply.isAtEnd else { throw SecurityKeyError.malformedResponse("bytes after the helper's signature") }
            try Self.checkSignature(signature, kind: handle.kind)
            return signature
        } catch let error as SecurityKeyError { throw error } catch { throw .malformedResponse("a truncated signature from ssh-sk-helper") }
    }

    public func enroll(_ request: SecurityKeyEnrollment, pin: SecretBytes?) throws(SecurityKeyError) -> (key: PrivateKey, attestation: SecurityKeyAttestation) {
        // The helper takes OpenSSH's own key type number (sshkey.h's enum sshkey_types, the
        // same from 8.2 to 9.x): KEY_ECDSA_SK 10, KEY_ED25519_SK 12.
        var head = SSHWriter()
        head.writeUInt32(request.kind == .ecdsa ? 10 : 12)
        head.writeString(provider)
        head.writeString("")   // device: the first found
        head.writeString(request.application)
        head.writeString("")   // user id: OpenSSH's default
        head.writeByte(request.flags.rawValue)
        var tail = SSHWriter()
        tail.writeString(request.challenge)
        var reply = try converse(.enroll, [.plain(head.bytes), .secretString(pin), .plain(tail.bytes)])
        do {
            let record = try reply.readString()
            let attestation = try SecurityKeyAttestation.parse(try reply.readString())
            guard reply.isAtEnd else { throw SecurityKeyError.malformedResponse("bytes after the helper's enrolment") }
            let key = try Self.key(record: record, comment: request.comment)
            return (key, attestation)
        } catch let error as SecurityKeyError { throw error } catch { throw .malformedResponse("a truncated enrolment from ssh-sk-helper") }
    }

    public func loadResidentKeys(pin: SecretBytes?) throws(SecurityKeyError) -> [PrivateKey] {
        var head = SSHWriter()
        head.writeString(provider)
        head.writeString("")   // device
        var tail = SSHWriter()
        tail.writeUInt32(0)    // flags: only ssh: credentials, as ssh-keygen -K
        var reply = try converse(.loadResident, [.plain(head.bytes), .secretString(pin), .plain(tail.bytes)])
        return try Self.residentKeys(&reply)
    }

    /// The load-resident reply after its type: (string key record, string comment, string user id)*.
    static func residentKeys(_ reply: inout SSHReader) throws(SecurityKeyError) -> [PrivateKey] {
        var keys: [PrivateKey] = []
        do {
            while !reply.isAtEnd {
                let record = try reply.readString()
                _ = try reply.readString()
                _ = try reply.readString()
                guard keys.count < 256 else { throw SecurityKeyError.malformedResponse("more than 256 resident keys") }
                keys.append(try key(record: record, comment: ""))
            }
        } catch let error as SecurityKeyError { throw error } catch { throw .malformedResponse("a truncated resident key list from ssh-sk-helper") }
        return keys
    }

    /// A security-key private record as the helper's reply holds it.
    static func key(record: [UInt8], comment: String) throws(SecurityKeyError) -> PrivateKey {
        guard let key = try? OpenSSHPrivateKey.key(record: record, comment: comment), let handle = SecurityKeyHandle(key),
              !handle.keyHandle.isEmpty else {
            throw .malformedResponse("a key from ssh-sk-helper that is not a security key")
        }
        return key
    }

    /// The helper assembles the blob itself; it must be one of the key's kind.
    static func checkSignature(_ blob: [UInt8], kind: SecurityKeyKind) throws(SecurityKeyError) {
        var r = SSHReader(blob)
        guard let type = try? r.readText(), type == kind.keyType, (try? r.readString()) != nil,
              (try? r.readByte()) != nil, (try? r.readUInt32()) != nil, r.isAtEnd else {
            throw .malformedResponse("a signature from ssh-sk-helper that is not a \(kind.rawValue) one")
        }
    }

    enum Part {
        case plain([UInt8])
        /// A string field whose bytes are secret (the PIN; nil or empty: an empty string).
        case secretString(SecretBytes?)
    }

    /// The largest reply read.
    static let replyLimit = 1 << 20

    /// Sends one request and returns the reader after the reply's type, or throws the
    /// helper's error.
    private func converse(_ type: MessageType, _ body: [Part]) throws(SecurityKeyError) -> SSHReader {
        var preamble = SSHWriter()
        preamble.writeByte(Self.protocolVersion)
        preamble.writeUInt32(type.rawValue)
        preamble.writeByte(1)          // log to stderr
        preamble.writeUInt32(2)        // SYSLOG_LEVEL_ERROR
        var parts: [Part] = [.plain(preamble.bytes)] + body
        var length = 0
        for part in parts {
            switch part {
            case .plain(let bytes): length += bytes.count
            case .secretString(let secret): length += 4 + (secret?.count ?? 0)
            }
        }
        var header = SSHWriter()
        header.writeUInt32(UInt32(length))
        parts.insert(.plain(header.bytes), at: 0)

        let pipe: UnixPipe
        do { pipe = try UnixPipe() } catch { throw .helperFailed(status: "not started", detail: "\(error)") }
        guard length + 4 <= pipe.capacity else {
            pipe.close()
            throw .malformedResponse("a request of \(length) bytes is too long for ssh-sk-helper")
        }
        do {
            let out = FileDescriptor(pipe.writeEnd)
            for part in parts {
                switch part {
                case .plain(let bytes): try out.writeAll(bytes)
                case .secretString(let secret):
                    var count = SSHWriter()
                    count.writeUInt32(UInt32(secret?.count ?? 0))
                    try out.writeAll(count.bytes)
                    if let secret { try secret.withUnsafeBytes { raw in try out.writeAll(raw) } }
                }
            }
        } catch {
            pipe.close()
            throw .helperFailed(status: "not started", detail: "\(error)")
        }
        close(pipe.writeEnd)
        defer { close(pipe.readEnd) }
        let options = Spawn.Options(fileActions: [.duplicate(pipe.readEnd, to: STDIN_FILENO)])
        let result: CapturedProcess.Result
        do {
            result = try CapturedProcess.run(helperPath, [helperPath], options: options, limit: Self.replyLimit,
                                             timeoutMilliseconds: 120_000)
        } catch {
            throw .helperFailed(status: "not started", detail: "\(error)")
        }
        let stderrText = String(decoding: result.stderr.prefix(400), as: UTF8.self)
            .split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        var framed = SSHReader(result.stdout)
        guard let payload = try? framed.readString(), framed.isAtEnd else {
            throw .helperFailed(status: result.timedOut ? "timed out" : "\(result.status)", detail: stderrText)
        }
        return try Self.reply(payload, expecting: type)
    }

    /// The reply's checks: the version, then an error or the expected type.
    static func reply(_ payload: [UInt8], expecting type: MessageType) throws(SecurityKeyError) -> SSHReader {
        var r = SSHReader(payload)
        guard let version = try? r.readByte(), version == protocolVersion else {
            throw .malformedResponse("an ssh-sk-helper reply of another protocol version")
        }
        guard let replyType = try? r.readUInt32() else { throw .malformedResponse("an ssh-sk-helper reply with no type") }
        if replyType == MessageType.error.rawValue {
            guard let code = try? r.readUInt32() else { throw .malformedResponse("an ssh-sk-helper error with no code") }
            throw helperError(code, operation: type)
        }
        guard replyType == type.rawValue else { throw .malformedResponse("an ssh-sk-helper reply of type \(replyType)") }
        return r
    }

    /// ssherr.h's codes (negated on the wire) for what ssh-sk.c makes of the provider's.
    static func helperError(_ code: UInt32, operation: MessageType) -> SecurityKeyError {
        let name = switch operation { case .sign: "sign"; case .enroll: "enroll"; default: "load resident keys" }
        switch code {
        case 60: return .deviceNotFound                     // SSH_ERR_DEVICE_NOT_FOUND
        case 43: return .pinRequired                        // SSH_ERR_KEY_WRONG_PASSPHRASE
        case 59: return .unsupported(operation: name)       // SSH_ERR_FEATURE_UNSUPPORTED
        case 44: return .credentialExists                   // SSH_ERR_KEY_BAD_PERMISSIONS
        default: return .failed(operation: name, code: -Int32(truncatingIfNeeded: min(code, UInt32(Int32.max))))
        }
    }
}
