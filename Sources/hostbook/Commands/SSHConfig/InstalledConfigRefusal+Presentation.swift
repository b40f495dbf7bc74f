// The words of each InstalledConfigRefusal (the installed ssh configuration, a take-over of
// the user's Host blocks, an ssh_config import): what is wrong, what to do, and the
// documented exit code (docs/command-line.md, "Exit codes"). Text from a file is quoted
// (PrintableText) or escaped here as it always was; the line is escaped again where it is
// printed (Hostbook.report).
import HostStore
import KeyFormats
import SSHConfig
import Workflows

extension InstalledConfigRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .configNotLoaded(let error, _) where error.kind == .tooLarge: .rejected
        case .importNotWritten(let error): Self.importError(error).exitCode
        default: .failure
        }
    }

    var message: String {
        switch self {
        case .cannotRead(let path, let reason):
            "cannot read \(path.escapedForTerminal): \(reason)"
        case .notARegularFile(let path):
            "cannot read \(path.escapedForTerminal): it is not a regular file"
        case .tooLargeToRead(let path):
            "cannot read \(path.escapedForTerminal): it is larger than 64 MiB"
        case .cannotWrite(let path, let reason):
            "cannot write \(path.escapedForTerminal): \(reason.escapedForTerminal)"
        case .cannotCreateFolder(let path, let errno):
            "cannot create \(path.escapedForTerminal): \(errno)"
        case .linkUnusable(let reason):
            reason.escapedForTerminal
        case .linkNotWritable(let path):
            "cannot write '\(path.escapedForTerminal)'"
        case .userConfigFolderNotWritable(let path, let target, let folder):
            "cannot write '\(path.escapedForTerminal)'\(target.map { $0 == path ? "" : " (a link to '\($0.escapedForTerminal)')" } ?? ""): "
                + "the folder '\(folder.escapedForTerminal)' is not writable"
        case .takeOverSyntax(let path, let line, let message):
            "\(PrintableText.quoted(path)) line \(line): \(PrintableText.quoted(message))"
        case .takeOverChangedSinceBackup(let path, let backup):
            "'\(PrintableText.quoted(path))' changed since hostbook took over Host blocks of it, and '\(PrintableText.quoted(backup))' no longer matches it"
        case .takeOverFolderNotWritable(let path, let folder):
            "cannot write '\(path.escapedForTerminal)': the folder '\(folder.escapedForTerminal)' is not writable"
        case .restoreChangedSinceTakeOver(let path, _):
            "'\(PrintableText.quoted(path))' changed since hostbook took over Host blocks of it; nothing was restored or uninstalled"
        case .configNotLoaded(let error, let root):
            Self.loadFailure(error, root: root).message
        case .configNotRegular(let path, let reason):
            "cannot read '\(PrintableText.quoted(path))': \(reason)"
        case .importNotWritten(let error):
            Self.importError(error).message
        }
    }

    var hint: String? {
        switch self {
        case .cannotRead, .notARegularFile, .tooLargeToRead, .cannotWrite, .cannotCreateFolder, .linkNotWritable:
            nil as String?
        case .linkUnusable:
            "Point it at a regular file you can write, or replace it with one; nothing was changed."
        case .userConfigFolderNotWritable:
            "Make it writable, or add the Include line yourself; nothing was changed."
        case .takeOverSyntax:
            "ssh refuses this file too; fix the line. Nothing was commented out."
        case .takeOverChangedSinceBackup:
            "Compare the two, keep what you want, then remove the backup and take over again. Nothing was commented out."
        case .takeOverFolderNotWritable:
            "Make it writable, or comment the Host blocks out yourself; nothing was changed."
        case .restoreChangedSinceTakeOver(_, let backup):
            "Its text from before is '\(PrintableText.quoted(backup))': put back what you want by hand, remove the backup, then uninstall again."
        case .configNotLoaded(let error, let root):
            Self.loadFailure(error, root: root).hint
        case .configNotRegular:
            "Name a configuration file to import: hostbook import-ssh-config FILE"
        case .importNotWritten(let error):
            Self.importError(error).hint
        }
    }

    private static func importError(_ error: HostStoreError) -> CLIError {
        HostStoreErrorPresentation.cliError(error, doing: "the import failed and nothing was written")
    }

    /// An ssh_config the import cannot read (`root`: the file named on the command line).
    private static func loadFailure(_ error: SSHConfigError, root: String) -> CLIError {
        let where_ = PrintableText.quoted(error.file)
        switch error.kind {
        case .unreadable where error.file == root:
            return CLIError.failure("cannot read '\(where_)': \(PrintableText.quoted(error.message.replacingPrefix("cannot be read: ")))",
                                    hint: "Name the configuration to import: hostbook import-ssh-config FILE")
        case .unreadable:
            return CLIError.failure("cannot read the included file '\(where_)': \(PrintableText.quoted(error.message.replacingPrefix("cannot be read: ")))",
                                    hint: "ssh refuses the configuration too; fix the Include or the file's permissions. Nothing was imported.")
        case .tooLarge:
            // Not broken (ssh may read it, slowly): beyond what hostbook takes in one import.
            return CLIError.rejected("'\(where_)' is too large to import: \(PrintableText.quoted(error.message))",
                                     hint: "Look for files included many times, or import parts of the configuration on their own. Nothing was imported.")
        case .includeDepth:
            return CLIError.failure("\(where_): \(PrintableText.quoted(error.message))",
                                    hint: "ssh refuses the configuration too; break the Include cycle. Nothing was imported.")
        case .syntax:
            return CLIError.failure("\(where_) line \(error.line): \(PrintableText.quoted(error.message))",
                                    hint: "ssh refuses this file too; fix the line and import again. Nothing was imported and the file was not changed.")
        }
    }
}

private extension String {
    func replacingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
