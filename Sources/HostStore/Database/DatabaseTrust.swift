// Whether a database on disk may be used, decided before SQLite opens it, the way OpenSSH
// refuses its own files (`Bad owner or permissions`): a database path that is a symbolic
// link, a file or folder owned by another user, or a file or folder that group or others
// can write is refused, with what to fix (a group of the user's own is the user). Another user who can write the file or its folder
// could change the hosts you connect to and the host keys you trust.
//
// Also here: telling "there is no database yet" (ENOENT) from "there is one, but it cannot
// be read" (EACCES, ENOTDIR, ELOOP, ...), so that a database you cannot read is never
// mistaken for an empty one.
#if canImport(Glibc)
import Glibc
#endif
import System

/// One reason not to trust a database: what is wrong and how to fix it.
public struct DatabaseTrustProblem: Sendable, Equatable {
    /// The file or folder the problem is about.
    public let path: String
    public let message: String
    public let fix: String
}

public enum DatabaseTrust {
    /// True when a file is at `path`, false when nothing is there (no file, or a missing
    /// folder on the way). Any other failure to look — permission denied on a folder, a
    /// path component that is a file — is an error naming the file and the reason.
    public static func databaseExists(_ path: String) throws -> Bool {
        var st = stat()
        if lstat(path, &st) == 0 { return true }
        let err = errno
        if err == ENOENT { return false }
        throw HostStoreError(.failed, "cannot read the database '\(path)': \(String(cString: strerror(err)))",
                             hint: "Check the permissions of the folders on the way to it, or choose another database with --db.")
    }

    /// Fails when the database at `path` cannot be read by this user (the reason from open(2)).
    static func requireReadable(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if fd >= 0 { close(fd); return }
        let err = errno
        throw HostStoreError(.failed, "cannot read the database '\(path)': \(String(cString: strerror(err)))",
                             hint: "Run hostbook as the user who owns it, fix its permissions (ls -l '\(path)'), or choose another database with --db.")
    }

    /// Every reason not to trust the database at `path` and its folder (empty: trusted).
    /// A missing file is only checked for its folder.
    public static func problems(_ path: String) -> [DatabaseTrustProblem] {
        var out: [DatabaseTrustProblem] = []
        let folderForStat = ParentFolder.of(path)
        var dir = stat()
        if stat(folderForStat, &dir) == 0 {
            if let p = ownerProblem(dir, path: folderForStat, what: "its folder '\(folderForStat)'", database: path) { out.append(p) }
            if othersCanWrite(dir) {
                out.append(DatabaseTrustProblem(
                    path: folderForStat,
                    message: "refusing the database '\(path)': other users can write to its folder '\(folderForStat)' (mode \(octal(dir.st_mode)))",
                    fix: "Run: chmod 700 '\(folderForStat)', or keep the database in a private folder (--db)."))
            }
        }
        var st = stat()
        guard lstat(path, &st) == 0 else { return out }
        if UInt32(st.st_mode) & UInt32(S_IFMT) == UInt32(S_IFLNK) {
            let target = linkTarget(path)
            out.append(DatabaseTrustProblem(
                path: path,
                message: "refusing the database '\(path)': it is a symbolic link\(target.map { " (to '\($0)')" } ?? "")",
                fix: target.map { "Give the file itself: --db '\(resolve($0, beside: path))' (or set HOSTBOOK_DB to it), or replace the link with the file." }
                    ?? "Replace the link with the file it points to, or give the file itself with --db."))
            return out
        }
        if UInt32(st.st_mode) & UInt32(S_IFMT) != UInt32(S_IFREG) {
            out.append(DatabaseTrustProblem(
                path: path, message: "refusing the database '\(path)': it is not a regular file",
                fix: "Choose a database file with --db or $HOSTBOOK_DB."))
            return out
        }
        if let p = ownerProblem(st, path: path, what: "it", database: path) { out.append(p) }
        if othersCanWrite(st) {
            out.append(DatabaseTrustProblem(
                path: path,
                message: "refusing the database '\(path)': other users can write to it (mode \(octal(st.st_mode)))",
                fix: "Run: chmod 600 '\(path)'"))
        }
        return out
    }

    /// Throws the first reason not to trust the database at `path` (exit 1).
    static func requireTrusted(_ path: String) throws {
        if let p = problems(path).first {
            throw HostStoreError(.failed, p.message, hint: p.fix)
        }
    }

    /// World-writable, or group-writable by a group that has someone else in it. A group
    /// that is this user's own — their primary group, with no other member — counts as the
    /// user, as Debian's OpenSSH counts it (user private groups, umask 002).
    private static func othersCanWrite(_ st: stat) -> Bool {
        let mode = UInt32(st.st_mode)
        if mode & 0o002 != 0 { return true }
        if mode & 0o020 == 0 { return false }
        return !isPrivateGroup(st.st_gid)
    }

    private static func isPrivateGroup(_ gid: gid_t) -> Bool {
        guard let pw = getpwuid(geteuid()), pw.pointee.pw_gid == gid, let me = pw.pointee.pw_name,
              let group = getgrgid(gid) else { return false }
        let name = String(cString: me)
        // No other user has it as their primary group...
        setpwent()
        defer { endpwent() }
        while let other = getpwent() {
            if other.pointee.pw_gid == gid, let n = other.pointee.pw_name, String(cString: n) != name { return false }
        }
        // ...and no other user is listed as a member.
        guard var member = group.pointee.gr_mem else { return true }
        while let m = member.pointee {
            if String(cString: m) != name { return false }
            member += 1
        }
        return true
    }

    /// The owner must be this user, or root (whom every user trusts anyway), as in OpenSSH.
    private static func ownerProblem(_ st: stat, path: String, what: String, database: String) -> DatabaseTrustProblem? {
        let me = geteuid()
        guard st.st_uid != me, st.st_uid != 0 else { return nil }
        return DatabaseTrustProblem(
            path: path,
            message: "refusing the database '\(database)': \(what) is owned by another user (\(userName(st.st_uid)))",
            fix: "Use a database in a folder of your own (--db), or have it owned by you: chown \(userName(me)) '\(path)' (as root).")
    }

    private static func userName(_ uid: uid_t) -> String {
        UserAccount.name(uid: uid) ?? "uid \(uid)"
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A relative link target, as the path it names from the link's folder.
    private static func resolve(_ target: String, beside link: String) -> String {
        if target.hasPrefix("/") { return target }
        let folder = ParentFolder.of(link)
        return !link.contains("/") ? target : (folder == "/" ? "/" + target : folder + "/" + target)
    }

    static func octal(_ mode: mode_t) -> String {
        let s = String(UInt32(mode) & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
