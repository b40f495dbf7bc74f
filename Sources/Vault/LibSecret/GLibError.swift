// Turns a GError from GDBus or libsecret into a VaultError that says, in a user's words,
// what is wrong (naming the program that answers, when known). The GError is freed here.
internal import CLibSecret

/// What the failing call was doing, for the message ("store the secret", ...).
func vaultError(from error: UnsafeMutablePointer<GError>?, deadline: Deadline, doing action: String) -> VaultError {
    defer { if let error { LibSecret.g_error_free(error) } }
    let service = deadline.service
    if deadline.expired { return .timedOut(milliseconds: deadline.milliseconds, service) }
    guard let error else { return .failed(action, nil, service) }
    let domain = error.pointee.domain
    let code = error.pointee.code
    if domain == LibSecret.g_io_error_quark(), code == Int32(G_IO_ERROR_CANCELLED.rawValue) || code == Int32(G_IO_ERROR_TIMED_OUT.rawValue) {
        return .timedOut(milliseconds: deadline.milliseconds, service)
    }
    if domain == LibSecret.g_dbus_error_quark() {
        switch code {
        case Int32(G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue), Int32(G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue):
            return .noService()
        case Int32(G_DBUS_ERROR_NO_REPLY.rawValue), Int32(G_DBUS_ERROR_TIMEOUT.rawValue), Int32(G_DBUS_ERROR_TIMED_OUT.rawValue):
            return .timedOut(milliseconds: deadline.milliseconds, service)
        default: break
        }
    }
    if domain == LibSecret.secret_error_get_quark(), code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
        return .locked(service)
    }
    return .failed(action, errorText(error), service)
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
