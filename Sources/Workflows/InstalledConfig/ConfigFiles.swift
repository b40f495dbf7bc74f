// How the installed configuration and a take-over read and write their files: a regular
// file only (never blocking on a FIFO or device), at most 64 MiB; written whole or not at
// all (AtomicFile); folders made 0700; a symbolic link followed to the file it ends at.
// Every failure is an InstalledConfigRefusal carrying the path.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum ConfigFiles {
    static let maxReadSize = 64 << 20

    /// A regular file's bytes (nil when it does not exist); never blocks on a FIFO or device.
    public static func read(_ path: String) throws -> [UInt8]? {
        let fd: Int32
        do { fd = try RegularFile.open(path).fd } catch {
            switch error {
            case .system(let why):
                var info = stat()
                if stat(path, &info) != 0 && errno == ENOENT { return nil }
                throw InstalledConfigRefusal.cannotRead(path: path, reason: why)
            case .notRegular: throw InstalledConfigRefusal.notARegularFile(path: path)
            }
        }
        defer { close(fd) }
        do { return try FileDescriptor(fd).readToEnd(limit: maxReadSize) } catch {
            switch error {
            case .system(let why): throw InstalledConfigRefusal.cannotRead(path: path, reason: "\(why)")
            case .tooLong: throw InstalledConfigRefusal.tooLargeToRead(path: path)
            }
        }
    }

    /// The last `count` bytes of a regular file (nil when it does not exist or is shorter).
    static func readTail(_ path: String, count: Int) throws -> [UInt8]? {
        let fd: Int32
        let info: stat
        do { (fd, info) = try RegularFile.open(path) } catch { return nil }
        defer { close(fd) }
        guard Int(info.st_size) >= count else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        guard lseek(fd, off_t(Int(info.st_size) - count), SEEK_SET) >= 0,
              let n = try? out.withUnsafeMutableBytes({ try FileDescriptor(fd).readFully(into: $0) }) else { return nil }
        return n == count ? out : nil
    }

    /// Replaces `path` whole or not at all (AtomicFile: a fresh temporary file in the same
    /// folder, fsync'ed, renamed over it, the folder fsync'ed).
    static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t) throws {
        do {
            try AtomicFile.write(path, bytes: bytes, mode: mode, replace: true)
        } catch AtomicFile.Failure.io(let why) {
            throw InstalledConfigRefusal.cannotWrite(path: path, reason: why)
        } catch {
            throw InstalledConfigRefusal.cannotWrite(path: path, reason: "\(error)")
        }
    }

    /// Creates the folder (and missing parents) 0700.
    static func makeFolder(_ path: String) throws {
        do {
            try PrivateFolder.make(path)
        } catch {
            throw InstalledConfigRefusal.cannotCreateFolder(path: error.path, errno: error.errno)
        }
    }

    /// The end of `path`'s chain of symbolic links (nil when there is no file); refused when
    /// that is no regular file.
    static func linkTarget(of path: String) throws -> String? {
        do { return try AtomicFile.linkTarget(of: path) } catch {
            switch error {
            case .io(let why): throw InstalledConfigRefusal.linkUnusable(reason: why)
            case .exists: throw InstalledConfigRefusal.linkNotWritable(path: path)
            }
        }
    }

    static func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// The names in `folder`; none when it cannot be read.
    static func list(_ folder: String) -> [String] {
        FolderNames.of(folder) ?? []
    }
}
