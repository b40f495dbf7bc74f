// The line hostbook writes when a vault call has been waiting a while on a terminal: the
// keyring is most likely showing a dialog that someone has to answer.
import Dispatch
import KeyFormats
#if canImport(Glibc)
import Glibc
#endif

/// Shown once, after `delay`, unless the call is done first; only on a terminal.
final class WaitNotice {
    private let item: DispatchWorkItem?

    init(deadlineMilliseconds: Int, service: @escaping @Sendable () -> String?,
         delayMilliseconds: Int = 1_000) {
        guard VaultTimeout.isInteractive, deadlineMilliseconds > delayMilliseconds else {
            item = nil
            return
        }
        let seconds = VaultError.seconds(deadlineMilliseconds)
        let work = DispatchWorkItem {
            // The program's name is its executable's, which anyone can choose: escaped, as
            // every outside string hostbook prints (this line bypasses the program's output).
            let who = service()?.escapedForTerminal ?? "the keyring"
            let line = "hostbook: waiting for \(who); answer its dialog if it shows one "
                + "(unlock, access request); giving up after \(seconds)\n"
            _ = Array(line.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        item = work
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delayMilliseconds), execute: work)
    }

    func cancel() { item?.cancel() }

    deinit { item?.cancel() }
}
