// The bytes hostbook keeps in a vault item: a version byte, then the secret.
//
//   version 1:  0x01 || secret bytes (a password in UTF-8, or a private key's
//               openssh-key-v1 encoding)
//
// The version lets the layout change later; an item whose version this build does not know
// is refused with `.unknownPayloadVersion` rather than read as garbage. The content type is
// not part of the format: gnome-keyring does not keep it for binary secrets.
public import SecureMemory

public enum SecretPayload {
    public static let currentVersion: UInt8 = 1

    /// `secret` prefixed with the current version byte, in secure memory.
    public static func encode(_ secret: SecretBytes) -> SecretBytes {
        let payload = SecretBytes(count: secret.count + 1)
        payload.withUnsafeMutableBytes { out in
            out[0] = currentVersion
            secret.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress, bytes.count > 0 {
                    (out.baseAddress! + 1).copyMemory(from: base, byteCount: bytes.count)
                }
            }
        }
        return payload
    }

    public enum DecodeError: Error, Equatable {
        case empty
        case unknownVersion(UInt8)
    }

    /// The secret inside a payload.
    public static func decode(_ payload: SecretBytes) throws(DecodeError) -> SecretBytes {
        guard payload.count > 0 else { throw .empty }
        let version = payload.withUnsafeBytes { $0[0] }
        guard version == currentVersion else { throw .unknownVersion(version) }
        return payload.slice(1..<payload.count)
    }
}
