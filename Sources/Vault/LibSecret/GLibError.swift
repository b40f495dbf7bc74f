// Turns a GError from GDBus or libsecret into a VaultError that says, in a user's words,
// what is wrong. The GError is freed here.
internal import CLibSecret

/// What the failing call was doing, for the message ("store the secret", ...).
func vaultError(from error: UnsafeMutablePointer<GError>?, deadline: Deadline, doing action: String) -> VaultError {
    defer { if let error { g_error_free(error) } }
    if deadline.expired { return .timedOut(milliseconds: deadline.milliseconds) }
    guard let error else { return VaultError(.failed, "the Secret Service could not \(action)") }
    let domain = error.pointee.domain
    let code = error.pointee.code
    if domain == g_io_error_quark(), code == Int32(G_IO_ERROR_CANCELLED.rawValue) || code == Int32(G_IO_ERROR_TIMED_OUT.rawValue) {
        return .timedOut(milliseconds: deadline.milliseconds)
    }
    if domain == g_dbus_error_quark() {
        switch code {
        case Int32(G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue), Int32(G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue):
            return .noService()
        case Int32(G_DBUS_ERROR_NO_REPLY.rawValue), Int32(G_DBUS_ERROR_TIMEOUT.rawValue), Int32(G_DBUS_ERROR_TIMED_OUT.rawValue):
            return .timedOut(milliseconds: deadline.milliseconds)
        default: break
        }
    }
    if domain == secret_error_get_quark(), code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
        return .locked()
    }
    return VaultError(.failed, "the Secret Service could not \(action): \(errorText(error))",
                      hint: "Check that your keyring (GNOME Keyring, KeePassXC, KWallet) works, then try again.")
}

/// The GError's message without GDBus's "GDBus.Error:org.example.Name: " prefix.
func errorText(_ error: UnsafeMutablePointer<GError>) -> String {
    guard let message = error.pointee.message else { return "unknown error" }
    var text = String(cString: message)
    if text.hasPrefix("GDBus.Error:"), let colon = text.firstIndex(of: " ") {
        text = String(text[text.index(after: colon)...])
    }
    return text
}
