// The one place HostStore's errors become what the user sees: a `HostStoreError` kind maps to
// the documented exit code (docs/command-line.md, "Exit codes"); a fix that is a hostbook
// command (its `remedy`) is worded here; a database failure is shown with what was being
// done when it happened.
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

    /// What to do about `error`: its remedy in hostbook's words, else the store's advice.
    static func hint(_ error: HostStoreError) -> String? {
        guard let remedy = error.remedy else { return error.advice }
        switch remedy {
        case .listHosts(let suggestion):
            return (suggestion.map { "Did you mean '\($0)'? " } ?? "") + "See 'hostbook list' for the hosts there are."
        case .listSnippets:
            return "See 'hostbook snippets list' for the snippets there are."
        case .renameOrEditHost(let existing):
            return "Choose another name, or change it with 'hostbook edit \(existing)'."
        case .renameOrEditSnippet(let existing):
            return "Choose another name, or change it with 'hostbook snippets edit \(existing)'."
        case .dropJump(let host, let nothingWritten):
            return nothingWritten ? "Nothing was written. Change that first with 'hostbook edit \(host) --no-jump' (or --jump another host)."
                                  : "Change that first with 'hostbook edit \(host) --no-jump'."
        case .importKey(let name):
            return "Import it first with 'hostbook keys import PATH --name \(name)'; 'hostbook keys list' shows the keys there are."
        case .addJumpHost(let name):
            return "Add it first with 'hostbook add \(name) --hostname H'."
        case .shortenJumpChain:
            return "Shorten the chain with 'hostbook edit NAME --jump' or '--no-jump'."
        case .showKey(let name):
            return "Use 'hostbook keys show \(name)' to see it."
        case .repointHosts(let hosts):
            return hosts.count == 1 ? "Point that host at another key first ('hostbook edit \(hosts[0]) --no-key')."
                                    : "Point those hosts at another key first ('hostbook edit HOST --no-key')."
        case .checkDatabase(let path):
            return "Run 'hostbook doctor', or restore a backup (\(path).vN.bak)."
        }
    }

    /// `error` as the user sees it. A `.database` failure reads "<doing>: <SQLite's
    /// message>" (with a hint when another hostbook holds the lock); every other kind keeps
    /// its own message and hint.
    static func cliError(_ error: HostStoreError, doing: String = "database error") -> CLIError {
        guard error.kind == .database else { return CLIError(exitCode(error.kind), error.message, hint: hint(error)) }
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
    var hint: String? { HostStoreErrorPresentation.hint(self) }
}
