// `hostbook_fingerprint(blob)`: the SHA-256 fingerprint of a key blob (`SHA256:` + unpadded
// base64, as `ssh-keygen -l` prints it), registered on every connection. The known-hosts
// store keeps a row's fingerprint only where it is not this value of its blob (schema v7,
// KnownHostsSchema): its readers and the v7 migration compute it in SQL. Deterministic, so
// SQLite may use it anywhere; NULL for anything but a blob.
internal import CSQLite3
import KeyFormats

enum SQLiteFingerprintFunction {
    static let name = "hostbook_fingerprint"

    /// Registers the function on `handle` (an open sqlite3 connection).
    static func register(on handle: OpaquePointer) {
        sqlite3_create_function_v2(handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, fingerprintOfBlob, nil, nil, nil)
    }

    /// The fingerprint of `blob`, exactly as `PublicKey.sha256Fingerprint` words it.
    static func fingerprint(of blob: UnsafeRawBufferPointer) -> String {
        "SHA256:" + Base64.encode(Digest.sha256(blob), padded: false)
    }
}

private func fingerprintOfBlob(_ context: OpaquePointer?, _ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) {
    guard count == 1, let value = values?[0], sqlite3_value_type(value) == SQLITE_BLOB else {
        sqlite3_result_null(context)
        return
    }
    let length = Int(sqlite3_value_bytes(value))
    let bytes = length == 0 ? UnsafeRawBufferPointer(start: nil, count: 0)
                            : UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: length)
    let text = SQLiteFingerprintFunction.fingerprint(of: bytes)
    sqlite3_result_text(context, text, -1, csqlite3_transient())
}
