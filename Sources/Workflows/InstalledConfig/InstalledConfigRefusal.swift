// Why the installed ssh configuration, a take-over of the user's Host blocks or an
// ssh_config import was refused: the raw paths, reasons and errors; the executable words
// each case (InstalledConfigRefusal+Presentation.swift) with its hint and exit code.
import HostStore
import SSHConfig
import System

public enum InstalledConfigRefusal: Error {
    // Reading and writing the files (ConfigFiles).
    /// A file could not be read (`reason`: the system's words).
    case cannotRead(path: String, reason: String)
    case notARegularFile(path: String)
    /// Larger than ConfigFiles' 64 MiB.
    case tooLargeToRead(path: String)
    /// A file could not be written (`reason`: AtomicFile's words).
    case cannotWrite(path: String, reason: String)
    case cannotCreateFolder(path: String, errno: Errno)
    /// A file named (~/.ssh/config, or one a take-over changes) is a symbolic link whose
    /// chain does not end at a regular file (`reason`: AtomicFile's words).
    case linkUnusable(reason: String)
    /// The end of a file's chain of links cannot be written.
    case linkNotWritable(path: String)

    // The Include line in ~/.ssh/config (`path`), through its link to `linkTarget`.
    case userConfigFolderNotWritable(path: String, linkTarget: String?, folder: String)

    // A take-over (`import-ssh-config --take-over`) and its undoing (`--restore`).
    /// ssh_config syntax ssh refuses too, at `line` of `path`.
    case takeOverSyntax(path: String, line: Int, message: String)
    /// `path` no longer matches its take-over backup, less the blocks taken over.
    case takeOverChangedSinceBackup(path: String, backup: String)
    case takeOverFolderNotWritable(path: String, folder: String)
    /// `path` was edited since the take-over: nothing is restored or uninstalled.
    case restoreChangedSinceTakeOver(path: String, backup: String)

    // The import (`import-ssh-config`) of the configuration at `root`.
    case configNotLoaded(SSHConfigError, root: String)
    /// `root` itself is no regular file (`reason`: SSHConfigFiles' words).
    case configNotRegular(path: String, reason: String)
    /// The database refused the import; nothing was written.
    case importNotWritten(HostStoreError)
}
