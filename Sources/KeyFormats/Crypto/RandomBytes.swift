// Random bytes from libsodium's CSPRNG.
import SecureMemory

public enum RandomBytes {
    public static func generate(_ count: Int) -> [UInt8] { Sodium.randomBytes(count: count) }
}
