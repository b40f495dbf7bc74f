// A bundle folder on disk: `bundle.txt` and its signature `bundle.txt.sig` (what `hostbook
// bundle export` writes and `bundle import DIR` reads). Both are read bounded (the text by
// BundleText's limit, the signature by SSHSignatureFile's) and only as regular files; both
// are written whole or not at all (AtomicFile), the signature over exactly the bytes written.
#if canImport(Glibc)
import Glibc
#endif
import ImportFormats
import KeyFormats
import System

public struct BundleFolder: Sendable {
    public static let textName = "bundle.txt"
    public static let signatureName = "bundle.txt.sig"

    public let path: String

    public init(path: String) { self.path = path }

    public var textPath: String { path + "/" + Self.textName }
    public var signaturePath: String { path + "/" + Self.signatureName }

    /// `bundle.txt`'s bytes, or nil when there is none.
    public func readText() throws -> [UInt8]? {
        try Self.read(textPath, limit: BundleText.maximumBytes)
    }

    /// `bundle.txt.sig`'s bytes, or nil when there is none.
    public func readSignature() throws -> [UInt8]? {
        try Self.read(signaturePath, limit: SSHSignatureFile.maxLength)
    }

    /// Writes the pair: the text, then the signature made over those bytes.
    public func write(text: [UInt8], signature: [UInt8]) throws {
        for (file, bytes) in [(textPath, text), (signaturePath, signature)] {
            do {
                try AtomicFile.write(file, bytes: bytes, mode: 0o644, replace: true)
            } catch {
                let why: String
                switch error {
                case .io(let text): why = text
                case .exists: why = "it exists"
                }
                throw SessionRefusal.bundleFileNotWritten(file: file, reason: why)
            }
        }
    }

    /// The file at `path` (nil when nothing is there), at most `limit` bytes.
    static func read(_ path: String, limit: Int) throws -> [UInt8]? {
        guard AtomicFile.exists(path) else { return nil }
        let fd: Int32
        do { (fd, _) = try RegularFile.open(path) } catch {
            throw SessionRefusal.bundleFileNotRead(path: path, reason: error.description)
        }
        defer { close(fd) }
        do {
            return try FileDescriptor(fd).readToEnd(limit: limit)
        } catch .tooLong {
            throw SessionRefusal.bundleFileTooLarge(path: path, limit: limit)
        } catch {
            throw SessionRefusal.bundleFileNotRead(path: path, reason: "\(error)")
        }
    }
}
