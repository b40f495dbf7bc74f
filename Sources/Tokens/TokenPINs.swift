// The PINs an agent session holds for its tokens, in libsodium secure memory (SecretBytes),
// by token (serial and label). A PIN is cached only after the token accepted it (C_Login):
// a wrong PIN leaves nothing behind. `drop()` forgets them all, for `agent lock` and vault
// lock (the agent's dropKeys); the next signature asks again.
public import SecureMemory
import System

public final class TokenPINs: @unchecked Sendable {
    private let pins = Lock<[String: SecretBytes]>([:])

    public init() {}

    static func slotKey(_ token: TokenInfo) -> String { token.serial + "\u{0}" + token.label }

    /// The PIN held for `token`, nil when none is.
    public func pin(for token: TokenInfo) -> SecretBytes? {
        pins.withLock { $0[Self.slotKey(token)] }
    }

    /// Checks `pin` on the token and holds it when accepted; throws (wrongPIN, pinLocked, ...)
    /// and holds nothing otherwise.
    public func accept(_ pin: SecretBytes, for token: TokenInfo, module: TokenModule) throws(TokenError) {
        try module.checkPIN(pin, on: token)
        pins.withLock { $0[Self.slotKey(token)] = pin }
    }

    /// Whether any PIN is held.
    public var isEmpty: Bool { pins.withLock { $0.isEmpty } }

    /// Forgets every PIN (their memory is wiped as SecretBytes are freed).
    public func drop() {
        pins.withLock { $0.removeAll() }
    }

    /// Signs through `module` with the PIN held for `token`, asking `ask` for one when none is
    /// held (the approver or the terminal) and holding it only once the token accepted it. A
    /// PIN the token refuses is forgotten.
    public func sign(_ data: [UInt8], flags: UInt32, key: TokenKeyObject, on token: TokenInfo, module: TokenModule,
                     ask: () -> SecretBytes?) throws(TokenError) -> [UInt8] {
        if let held = pin(for: token) {
            do throws(TokenError) {
                return try module.sign(data, flags: flags, key: key.publicKey, id: key.id, on: token, pin: held)
            } catch .wrongPIN {
                pins.withLock { $0[Self.slotKey(token)] = nil }
                throw .wrongPIN
            }
        }
        guard let asked = ask() else { throw .pinRequired }
        try accept(asked, for: token, module: module)
        return try module.sign(data, flags: flags, key: key.publicKey, id: key.id, on: token, pin: asked)
    }
}
