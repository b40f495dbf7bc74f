// A PKCS#11 module (.so) loaded in this process through its function list: the tokens it
// sees, the public key objects on one, and signatures by a private key found by CKA_ID after
// C_Login with a PIN the caller holds in SecretBytes. Each call is serialised (a module is
// not known to be re-entrant for hostbook's use) and opens and closes its own session, so
// no login outlives the call: the PIN, kept by the agent, is what lasts, and dropping it
// ends the token's use. Every count and length the module returns is bounded before use.
internal import CPKCS11
public import KeyFormats
public import SecureMemory
import System

public final class TokenModule: @unchecked Sendable {
    public let path: String
    private let functions: UnsafeMutablePointer<hb_CK_FUNCTION_LIST>
    private let calls = Lock()

    /// The most slots and objects read from a module.
    public static let maxSlots = 64
    public static let maxObjects = 256

    /// Modules by path: loaded and initialised once, never unloaded or finalised (another
    /// part of the process may still use it).
    private static let loaded = Lock<[String: TokenModule]>([:])

    /// The module at `path` when the path rule allows it (`allowed`: the paths the user named).
    public static func load(path: String, allowed: [String] = []) throws(TokenError) -> TokenModule {
        if let refusal = TokenModulePath.check(path, allowed: allowed) { throw refusal }
        let result: Result<TokenModule, TokenError> = loaded.withLock { modules in
            if let module = modules[path] { return .success(module) }
            do throws(TokenError) {
                let module = try TokenModule(path: path)
                modules[path] = module
                return .success(module)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    private init(path: String) throws(TokenError) {
        self.path = path
        let address: UnsafeMutableRawPointer
        do {
            address = try DynamicLibrary(path: path).symbol("C_GetFunctionList")
        } catch {
            throw .moduleNotLoaded(path: path, reason: error.symbol.map { "no \($0): \(error.reason)" } ?? error.reason)
        }
        var list: UnsafeMutablePointer<hb_CK_FUNCTION_LIST>? = nil
        let status = hostbook_p11_get_function_list(address, &list)
        guard status == HB_CKR_OK, let list else { throw .moduleNotLoaded(path: path, reason: "C_GetFunctionList returned \(status)") }
        // Version 2.x or 3.x: the layout up to C_WaitForSlotEvent is the same.
        guard list.pointee.version.major == 2 || list.pointee.version.major == 3 else {
            throw .moduleNotLoaded(path: path, reason: "PKCS#11 version \(list.pointee.version.major)")
        }
        guard let initialize = list.pointee.C_Initialize else { throw .moduleNotLoaded(path: path, reason: "no C_Initialize") }
        var args = hb_CK_C_INITIALIZE_ARGS(CreateMutex: nil, DestroyMutex: nil, LockMutex: nil, UnlockMutex: nil,
                                           flags: HB_CKF_OS_LOCKING_OK, pReserved: nil)
        let initialized = initialize(&args)
        guard initialized == HB_CKR_OK || initialized == HB_CKR_CRYPTOKI_ALREADY_INITIALIZED else {
            throw .call(operation: "C_Initialize", code: initialized)
        }
        functions = list
    }

    // MARK: Tokens

    /// The tokens present, with their identities.
    public func tokens() throws(TokenError) -> [TokenInfo] {
        try serialised { () throws(TokenError) -> [TokenInfo] in
            let f = functions.pointee
            guard let getSlotList = f.C_GetSlotList, let getTokenInfo = f.C_GetTokenInfo else { throw .malformed("no C_GetSlotList or C_GetTokenInfo") }
            var count: hb_CK_ULONG = 0
            try check(getSlotList(1, nil, &count), "C_GetSlotList")
            guard count <= Self.maxSlots else { throw .malformed("\(count) slots") }
            var slots = [hb_CK_SLOT_ID](repeating: 0, count: Int(count))
            var filled = count
            try check(slots.withUnsafeMutableBufferPointer { getSlotList(1, $0.baseAddress, &filled) }, "C_GetSlotList")
            guard filled <= count else { throw .malformed("\(filled) slots after \(count)") }
            var tokens: [TokenInfo] = []
            for slot in slots.prefix(Int(filled)) {
                var info = hb_CK_TOKEN_INFO()
                guard getTokenInfo(slot, &info) == HB_CKR_OK, info.flags & HB_CKF_TOKEN_INITIALIZED != 0 else { continue }
                tokens.append(TokenInfo(slot: slot,
                                        label: withUnsafeBytes(of: info.label) { TokenInfo.field($0) },
                                        manufacturer: withUnsafeBytes(of: info.manufacturerID) { TokenInfo.field($0) },
                                        model: withUnsafeBytes(of: info.model) { TokenInfo.field($0) },
                                        serial: withUnsafeBytes(of: info.serialNumber) { TokenInfo.field($0) },
                                        loginRequired: info.flags & HB_CKF_LOGIN_REQUIRED != 0))
            }
            return tokens
        }
    }

    /// The one token chosen by slot or label; with neither, the only token there is.
    public func token(slot: UInt? = nil, label: String? = nil) throws(TokenError) -> TokenInfo {
        let all = try tokens()
        let matching = all.filter { (slot == nil || $0.slot == slot) && (label == nil || $0.label == label) }
        guard let first = matching.first else { throw .noToken(slot: slot, label: label) }
        guard matching.count == 1 else { throw .severalTokens(labels: matching.map(\.label)) }
        return first
    }

    /// The token identified by its serial and label (how a recorded key finds its token again,
    /// whatever slot number it has today).
    public func token(serial: String, label: String) throws(TokenError) -> TokenInfo {
        guard let token = try tokens().first(where: { $0.serial == serial && $0.label == label }) else {
            throw .noToken(slot: nil, label: label)
        }
        return token
    }

    // MARK: Keys

    /// The public key objects on `token` that SSH can use (others are skipped), in the order
    /// the module lists them, without a login (public objects).
    public func publicKeys(on token: TokenInfo) throws(TokenError) -> [TokenKeyObject] {
        try withSession(token.slot, pin: nil) { (session) throws(TokenError) -> [TokenKeyObject] in
            let objects = try find(session, class: HB_CKO_PUBLIC_KEY, id: nil)
            var keys: [TokenKeyObject] = []
            for object in objects {
                guard let keyType = try attribute(session, object, HB_CKA_KEY_TYPE, max: 8).flatMap(Self.ulong) else { continue }
                let id = try attribute(session, object, HB_CKA_ID, max: TokenKeyObject.maxIDLength) ?? []
                let label = try attribute(session, object, HB_CKA_LABEL, max: TokenKeyObject.maxLabelLength) ?? []
                let isRSA = keyType == HB_CKK_RSA
                let modulus = isRSA ? try attribute(session, object, HB_CKA_MODULUS, max: TokenKeyObject.maxModulusLength) : nil
                let exponent = isRSA ? try attribute(session, object, HB_CKA_PUBLIC_EXPONENT, max: 64) : nil
                let params = isRSA ? nil : try attribute(session, object, HB_CKA_EC_PARAMS, max: 64)
                let point = isRSA ? nil : try attribute(session, object, HB_CKA_EC_POINT, max: 256)
                guard let key = try? TokenKeyObject.parse(keyType: keyType, id: id, label: label, modulus: modulus,
                                                          exponent: exponent, ecParams: params, ecPoint: point) else { continue }
                keys.append(key)
            }
            return keys
        }
    }

    /// Checks `pin` by logging in to `token` (and out again).
    public func checkPIN(_ pin: SecretBytes, on token: TokenInfo) throws(TokenError) {
        try withSession(token.slot, pin: pin) { (_) throws(TokenError) in }
    }

    /// The SSH signature blob of `data` by the private key with CKA_ID `id` whose public half
    /// is `key`, under the agent's sign `flags`.
    public func sign(_ data: [UInt8], flags: UInt32, key: PublicKey, id: [UInt8], on token: TokenInfo,
                     pin: SecretBytes?) throws(TokenError) -> [UInt8] {
        let request = try TokenSignature(key: key, data: data, flags: flags)
        let answer = try withSession(token.slot, pin: pin) { (session) throws(TokenError) -> [UInt8] in
            let objects = try find(session, class: HB_CKO_PRIVATE_KEY, id: id)
            guard let object = objects.first else { throw .keyNotFound(id: id) }
            let f = functions.pointee
            guard let signInit = f.C_SignInit, let signCall = f.C_Sign else { throw .malformed("no C_SignInit or C_Sign") }
            let mechanismType: hb_CK_ULONG = switch request.mechanism {
            case .rsaPKCS: HB_CKM_RSA_PKCS
            case .ecdsa: HB_CKM_ECDSA
            case .eddsa: HB_CKM_EDDSA
            }
            var mechanism = hb_CK_MECHANISM(mechanism: mechanismType, pParameter: nil, ulParameterLen: 0)
            try check(signInit(session, &mechanism, object), "C_SignInit")
            let capacity = TokenSignature.maxLength(for: key)
            var out = [UInt8](repeating: 0, count: capacity)
            var length = hb_CK_ULONG(capacity)
            let status = request.input.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { o in
                    signCall(session, input.baseAddress, hb_CK_ULONG(input.count), o.baseAddress, &length)
                }
            }
            try check(status, "C_Sign")
            guard length <= capacity else { throw .malformed("a signature of \(length) bytes in a buffer of \(capacity)") }
            return Array(out.prefix(Int(length)))
        }
        return try request.blob(answer: answer, key: key)
    }

    // MARK: Sessions and objects

    /// Runs `body` in a read-only session on `slot`, logged in with `pin` when given; logs out
    /// and closes the session whatever happens.
    private func withSession<R>(_ slot: UInt, pin: SecretBytes?, _ body: (hb_CK_SESSION_HANDLE) throws(TokenError) -> R) throws(TokenError) -> R {
        try serialised { () throws(TokenError) -> R in
            let f = functions.pointee
            guard let open = f.C_OpenSession, let close = f.C_CloseSession, let login = f.C_Login, let logout = f.C_Logout else {
                throw .malformed("no session functions")
            }
            var session: hb_CK_SESSION_HANDLE = 0
            try check(open(slot, HB_CKF_SERIAL_SESSION, nil, nil, &session), "C_OpenSession")
            defer { _ = close(session) }
            if let pin {
                let status = pin.withUnsafeBytes { bytes in
                    login(session, HB_CKU_USER, bytes.bindMemory(to: hb_CK_BYTE.self).baseAddress, hb_CK_ULONG(bytes.count))
                }
                switch status {
                case HB_CKR_OK, HB_CKR_USER_ALREADY_LOGGED_IN: break
                case HB_CKR_PIN_INCORRECT, HB_CKR_PIN_INVALID, HB_CKR_PIN_LEN_RANGE: throw .wrongPIN
                case HB_CKR_PIN_LOCKED: throw .pinLocked
                default: throw .call(operation: "C_Login", code: status)
                }
            }
            defer { if pin != nil { _ = logout(session) } }
            return try body(session)
        }
    }

    /// The handles of the objects of `objectClass` (and CKA_ID `id` when given), at most maxObjects.
    private func find(_ session: hb_CK_SESSION_HANDLE, class objectClass: hb_CK_ULONG, id: [UInt8]?) throws(TokenError) -> [hb_CK_OBJECT_HANDLE] {
        let f = functions.pointee
        guard let findInit = f.C_FindObjectsInit, let findCall = f.C_FindObjects, let findFinal = f.C_FindObjectsFinal else {
            throw .malformed("no C_FindObjects")
        }
        var classValue = objectClass
        var idValue = id ?? []
        let status = withUnsafeMutableBytes(of: &classValue) { classBytes in
            idValue.withUnsafeMutableBytes { idBytes in
                var template = [hb_CK_ATTRIBUTE(type: HB_CKA_CLASS, pValue: classBytes.baseAddress, ulValueLen: hb_CK_ULONG(classBytes.count))]
                if id != nil {
                    template.append(hb_CK_ATTRIBUTE(type: HB_CKA_ID, pValue: idBytes.baseAddress, ulValueLen: hb_CK_ULONG(idBytes.count)))
                }
                return template.withUnsafeMutableBufferPointer { findInit(session, $0.baseAddress, hb_CK_ULONG($0.count)) }
            }
        }
        try check(status, "C_FindObjectsInit")
        defer { _ = findFinal(session) }
        var handles = [hb_CK_OBJECT_HANDLE](repeating: 0, count: Self.maxObjects)
        var found: hb_CK_ULONG = 0
        try check(handles.withUnsafeMutableBufferPointer { findCall(session, $0.baseAddress, hb_CK_ULONG(Self.maxObjects), &found) }, "C_FindObjects")
        guard found <= Self.maxObjects else { throw .malformed("\(found) objects where at most \(Self.maxObjects) were asked for") }
        return Array(handles.prefix(Int(found)))
    }

    /// One attribute's value: nil when the object has none; refused when longer than `max`.
    private func attribute(_ session: hb_CK_SESSION_HANDLE, _ object: hb_CK_OBJECT_HANDLE, _ type: hb_CK_ULONG, max: Int) throws(TokenError) -> [UInt8]? {
        guard let get = functions.pointee.C_GetAttributeValue else { throw .malformed("no C_GetAttributeValue") }
        var probe = hb_CK_ATTRIBUTE(type: type, pValue: nil, ulValueLen: 0)
        let sized = get(session, object, &probe, 1)
        if sized == HB_CKR_ATTRIBUTE_TYPE_INVALID || probe.ulValueLen == UInt.max { return nil }
        try check(sized, "C_GetAttributeValue")
        guard probe.ulValueLen <= max else { throw .malformed("an attribute of \(probe.ulValueLen) bytes (at most \(max))") }
        let capacity = Int(probe.ulValueLen)
        var value = [UInt8](repeating: 0, count: capacity)
        var length: hb_CK_ULONG = 0
        let status = value.withUnsafeMutableBytes { bytes in
            var attribute = hb_CK_ATTRIBUTE(type: type, pValue: bytes.baseAddress, ulValueLen: hb_CK_ULONG(capacity))
            let status = get(session, object, &attribute, 1)
            length = attribute.ulValueLen
            return status
        }
        try check(status, "C_GetAttributeValue")
        guard length <= capacity else { throw .malformed("an attribute of \(length) bytes in a buffer of \(capacity)") }
        return Array(value.prefix(Int(length)))
    }

    /// A CK_ULONG attribute value in the machine's byte order.
    static func ulong(_ bytes: [UInt8]) -> UInt? {
        guard bytes.count == MemoryLayout<UInt>.size else { return nil }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt.self) }
    }

    /// Runs `body` holding the module's call lock.
    private func serialised<R>(_ body: () throws(TokenError) -> R) throws(TokenError) -> R {
        let result: Result<R, TokenError> = calls.locked {
            do throws(TokenError) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private func check(_ status: hb_CK_RV, _ operation: String) throws(TokenError) {
        guard status == HB_CKR_OK else { throw .call(operation: operation, code: status) }
    }
}
