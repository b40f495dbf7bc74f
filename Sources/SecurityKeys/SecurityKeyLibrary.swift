// A provider library (a FIDO middleware .so, as SSH_SK_PROVIDER names for OpenSSH) loaded
// in this process: sk_api_version must give the major version of the interface declared
// in CSecurityKey (OpenSSH 9.2's), then sk_sign / sk_enroll / sk_load_resident_keys are
// called and their answers copied out, checked and freed (wiped) at once. One call at a
// time per library: a provider talks to one USB device and is not known to be re-entrant.
internal import CSecurityKey
public import KeyFormats
public import SecureMemory
import System

public final class SecurityKeyLibrary: SecurityKeyMiddleware, @unchecked Sendable {
    public let path: String
    private let signAddress: UnsafeMutableRawPointer
    private let enrollAddress: UnsafeMutableRawPointer
    private let residentAddress: UnsafeMutableRawPointer
    private let calls = Lock()

    /// The major version hostbook speaks (OpenSSH 9.2's sk-api.h).
    public static let apiVersionMajor = UInt32(HOSTBOOK_SK_VERSION_MAJOR)

    /// Loaded libraries by path: a library is loaded once and never unloaded.
    private static let loaded = Lock<[String: SecurityKeyLibrary]>([:])

    /// The provider at `path`, loaded and its version checked (once per process).
    public static func load(path: String) throws(SecurityKeyError) -> SecurityKeyLibrary {
        let result: Result<SecurityKeyLibrary, SecurityKeyError> = loaded.withLock { libraries in
            if let library = libraries[path] { return .success(library) }
            do throws(SecurityKeyError) {
                let library = try SecurityKeyLibrary(path: path)
                libraries[path] = library
                return .success(library)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    private init(path: String) throws(SecurityKeyError) {
        self.path = path
        do {
            let library = try DynamicLibrary(path: path)
            let version = hostbook_sk_call_api_version(try library.symbol("sk_api_version"))
            let mask = UInt32(HOSTBOOK_SK_VERSION_MAJOR_MASK)
            guard version & mask == Self.apiVersionMajor & mask else {
                throw SecurityKeyError.providerVersion(path: path, found: version, expected: Self.apiVersionMajor)
            }
            signAddress = try library.symbol("sk_sign")
            enrollAddress = try library.symbol("sk_enroll")
            residentAddress = try library.symbol("sk_load_resident_keys")
        } catch let error as DynamicLibrary.LoadError {
            let what = error.symbol.map { "no \($0): \(error.reason)" } ?? error.reason
            throw .providerNotLoaded(path: path, reason: what)
        } catch let error as SecurityKeyError {
            throw error
        } catch {
            throw .providerNotLoaded(path: path, reason: "\(error)")
        }
    }

    public func sign(_ key: PrivateKey, data: [UInt8], pin: SecretBytes?) throws(SecurityKeyError) -> [UInt8] {
        guard let handle = SecurityKeyHandle(key) else { throw .notSecurityKey }
        let response: SecurityKeySignResponse = try withPINCString(pin) { (pinText) throws(SecurityKeyError) -> SecurityKeySignResponse in
            var out: UnsafeMutablePointer<hostbook_sk_sign_response>? = nil
            let status = calls.locked {
                data.withUnsafeBufferPointer { d in
                    handle.keyHandle.withUnsafeBufferPointer { h in
                        handle.application.withCString { app in
                            hostbook_sk_call_sign(signAddress, handle.kind.providerAlgorithm, d.baseAddress, d.count, app,
                                                  h.baseAddress, h.count, handle.flags.rawValue, pinText, &out)
                        }
                    }
                }
            }
            defer { hostbook_sk_free_sign(out) }
            guard status == 0 else { throw Self.error(status, operation: "sign") }
            guard let answer = out?.pointee else { throw .malformedResponse("no signature") }
            return SecurityKeySignResponse(flags: answer.flags, counter: answer.counter,
                                           sigR: Self.bytes(answer.sig_r, answer.sig_r_len),
                                           sigS: Self.bytes(answer.sig_s, answer.sig_s_len))
        }
        return try response.signatureBlob(for: handle.kind)
    }

    public func enroll(_ request: SecurityKeyEnrollment, pin: SecretBytes?) throws(SecurityKeyError) -> (key: PrivateKey, attestation: SecurityKeyAttestation) {
        let response: SecurityKeyEnrollResponse = try withPINCString(pin) { (pinText) throws(SecurityKeyError) -> SecurityKeyEnrollResponse in
            var out: UnsafeMutablePointer<hostbook_sk_enroll_response>? = nil
            let status = calls.locked {
                request.challenge.withUnsafeBufferPointer { c in
                    request.application.withCString { app in
                        hostbook_sk_call_enroll(enrollAddress, request.kind.providerAlgorithm, c.baseAddress, c.count, app,
                                                request.flags.rawValue, pinText, &out)
                    }
                }
            }
            defer { hostbook_sk_free_enroll(out) }
            guard status == 0 else { throw Self.error(status, operation: "enroll") }
            guard let answer = out?.pointee else { throw .malformedResponse("no enrolment") }
            return Self.enrollResponse(answer)
        }
        let key = try response.privateKey(kind: request.kind, application: request.application, comment: request.comment)
        return (key, response.attestation)
    }

    public func loadResidentKeys(pin: SecretBytes?) throws(SecurityKeyError) -> [PrivateKey] {
        try withPINCString(pin) { (pinText) throws(SecurityKeyError) -> [PrivateKey] in
            var list: UnsafeMutablePointer<UnsafeMutablePointer<hostbook_sk_resident_key>?>? = nil
            var count = 0
            let status = calls.locked { hostbook_sk_call_load_resident_keys(residentAddress, pinText, &list, &count) }
            defer {
                if let list {
                    for i in 0..<count { hostbook_sk_free_resident(list[i]) }
                    hostbook_sk_free_list(list)
                }
            }
            guard status == 0 else { throw Self.error(status, operation: "load resident keys") }
            var keys: [PrivateKey] = []
            guard let list else { return keys }
            for i in 0..<count {
                guard let resident = list[i]?.pointee, let applicationText = resident.application else {
                    throw .malformedResponse("an empty resident key")
                }
                let application = String(cString: applicationText)
                // Only credentials made for SSH (ssh-sk.c skips the others, e.g. a website's).
                guard application.hasPrefix("ssh:") else { continue }
                let kind: SecurityKeyKind
                switch resident.alg {
                case SecurityKeyKind.ed25519.providerAlgorithm: kind = .ed25519
                case SecurityKeyKind.ecdsa.providerAlgorithm: kind = .ecdsa
                default: continue
                }
                var response = Self.enrollResponse(resident.key)
                // As ssh-sk.c gives a resident key: presence and resident, and verification
                // when the device says the credential needs it.
                var flags: SecurityKeyFlags = [.userPresence, .resident]
                if SecurityKeyFlags(rawValue: resident.flags).contains(.userVerification) { flags.insert(.userVerification) }
                response.flags = flags.rawValue
                keys.append(try response.privateKey(kind: kind, application: application, comment: ""))
            }
            return keys
        }
    }

    private static func enrollResponse(_ answer: hostbook_sk_enroll_response) -> SecurityKeyEnrollResponse {
        SecurityKeyEnrollResponse(
            flags: answer.flags, publicKey: bytes(answer.public_key, answer.public_key_len),
            keyHandle: bytes(answer.key_handle, answer.key_handle_len),
            attestation: SecurityKeyAttestation(certificate: bytes(answer.attestation_cert, answer.attestation_cert_len),
                                                signature: bytes(answer.signature, answer.signature_len),
                                                authenticatorData: bytes(answer.authdata, answer.authdata_len)))
    }

    /// The longest buffer copied out of an answer: a length past it is a broken provider.
    static let maximumField = 1 << 20

    private static func bytes(_ pointer: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0, count <= maximumField else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    static func error(_ status: Int32, operation: String) -> SecurityKeyError {
        switch status {
        case HOSTBOOK_SK_ERR_DEVICE_NOT_FOUND: .deviceNotFound
        case HOSTBOOK_SK_ERR_PIN_REQUIRED: .pinRequired
        case HOSTBOOK_SK_ERR_UNSUPPORTED: .unsupported(operation: operation)
        case HOSTBOOK_SK_ERR_CREDENTIAL_EXISTS: .credentialExists
        default: .failed(operation: operation, code: status)
        }
    }
}
