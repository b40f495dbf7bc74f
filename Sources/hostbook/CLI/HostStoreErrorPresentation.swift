// The one place HostStore's errors become what the user sees: a `HostStoreError` kind maps to
// the documented exit code (docs/command-line.md, "Exit codes"); a database failure is shown
// with what was being done when it happened.
import HostStore

enum HostStoreErrorPresentation {
    /// The exit code for each kind.
    static func exitCode(_ kind: HostStoreError.Kind) -> ExitCode {
        switch kind {
        case .notFound: .notFound
        case .rejected, .keyNameTaken, .keyAlreadyStored, .keyInUse: .rejected
        case .newerSchema, .failed, .database, .unusableInput: .failure
        case .changedMeanwhile: .hostKeyChanged
        }
    }

    /// `error` as the user sees it. A `.database` failure reads "<doing>: <SQLite's
    /// message>" (with a hint when another hostbook holds the lock); every other kind keeps
    /// its own message and hint.
    static func cliError(_ error: HostStoreError, doing: String = "database error") -> CLIError {
        guard error.kind == .database else { return CLIError(exitCode(error.kind), error.message, hint: error.hint) }
        return CLIError.failure("\(doing): \(error.message)", hint: error.isBusy ? "Another hostbook is writing; try again." : nil)
    }

    /// Runs `body`, presenting a database failure with `doing` (other errors pass through).
    static func mapping<R>(doing: String = "database error", _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let e as HostStoreError where e.kind == .database {
            throw cliError(e, doing: doing)
        }
    }
}

extension HostStoreError: UserFacingError {
    var exitCode: ExitCode { HostStoreErrorPresentation.exitCode(kind) }
}
