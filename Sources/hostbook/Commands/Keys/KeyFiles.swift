// Reading a key file and writing an exported one (0600, never over an existing file).
#if canImport(Glibc)
import Glibc
#endif
import SecureMemory

enum KeyFiles {
    /// Largest key file read (a 16384-bit RSA key in PEM is about 13 KiB).
    static let maxSize = 1 << 20

    /// The bytes of `path` (`-` = standard input).
    static func read(_ path: String) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.failure("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var out: [UInt8] = []
        // Reserve the file's size up front so growing the array leaves no stray copies of
        // an unencrypted key behind in freed memory.
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > 0 { out.reserveCapacity(min(Int(info.st_size), maxSize) + 1) }
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errno == EISDIR ? "it is a folder" : String(cString: strerror(errno))
                throw CLIError.failure("cannot read '\(path)': \(reason)")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            guard out.count <= maxSize else {
                Sodium.wipe(&out)
                throw CLIError.failure("'\(path)' is larger than 1 MiB; that is not a key file")
            }
        }
        Sodium.wipe(&chunk)
        return out
    }

    /// Writes `secret` to a new file `path` with mode 0600, atomically (AtomicFile): an
    /// existing file is refused and never touched.
    static func writeNew(_ path: String, _ secret: SecretBytes) throws {
        do {
            try AtomicFile.write(path, mode: 0o600) { fd in writeAll(fd, secret) }
        } catch AtomicFile.Failure.exists {
            throw refusal(path)
        } catch AtomicFile.Failure.io(let why) {
            throw CLIError.failure(why)
        }
    }

    /// Refuses an --output file that exists, before anything is asked or computed.
    static func refuseExisting(_ path: String) throws {
        if AtomicFile.exists(path) { throw refusal(path) }
    }

    private static func refusal(_ path: String) -> CLIError {
        CLIError.rejected("'\(path)' already exists", hint: "Choose another --output file or remove it first.")
    }

    /// Writes the secret straight from secure memory (no String copy).
    @discardableResult
    static func writeAll(_ fd: Int32, _ secret: SecretBytes) -> Bool {
        secret.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }

    /// The default key name for a file: its base name without .pem/.ppk/.key.
    static func defaultName(for path: String) -> String {
        var base = String(path.split(separator: "/", omittingEmptySubsequences: true).last ?? "")
        for ext in [".pem", ".ppk", ".key"] where base.hasSuffix(ext) && base.count > ext.count {
            base.removeLast(ext.count)
            break
        }
        return base
    }
}
