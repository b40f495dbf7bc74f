// A token's identity as C_GetTokenInfo gives it (blank-padded fixed-width fields), what
// hostbook records beside the keys it imports: nothing secret.
public struct TokenInfo: Sendable, Equatable {
    public let slot: UInt
    public let label: String
    public let manufacturer: String
    public let model: String
    public let serial: String
    /// CKF_LOGIN_REQUIRED: a PIN is needed before the private keys can sign.
    public let loginRequired: Bool

    public init(slot: UInt, label: String, manufacturer: String, model: String, serial: String, loginRequired: Bool) {
        self.slot = slot
        self.label = label
        self.manufacturer = manufacturer
        self.model = model
        self.serial = serial
        self.loginRequired = loginRequired
    }

    /// A fixed-width field: UTF-8, padded with blanks (some modules pad with NULs).
    static func field<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var trimmed = Array(bytes)
        while let last = trimmed.last, last == 0x20 || last == 0 { trimmed.removeLast() }
        return String(decoding: trimmed, as: UTF8.self)
    }
}
