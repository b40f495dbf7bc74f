// What a vault call does when it has been waiting a while on a terminal: the keyring is
// most likely showing a dialog that someone has to answer, so the user is told. The line
// and where it goes are the executable's (`VaultWaitNotice.show`, given once at start);
// this library only says when, which program answers and how long the call waits.
import Dispatch
import System

public enum VaultWaitNotice {
    /// Tells the user a vault call waits. `service`: the program that answers the Secret
    /// Service, once known (its executable's name, which anyone can choose: outside text);
    /// `giveUpAfter`: how long the call waits in all, as the vault's messages say it (`60 s`).
    public typealias Show = @Sendable (_ service: String?, _ giveUpAfter: String) -> Void

    private static let shown = Lock<Show?>(nil)

    /// Who is told from now on (nil: nobody). The executable sets it once, at start.
    public static func show(_ show: Show?) { shown.withLock { $0 = show } }

    static var current: Show? { shown.withLock { $0 } }
}

/// Shown once, after `delay`, unless the call is done first; only on a terminal.
final class WaitNotice {
    private let item: DispatchWorkItem?

    init(deadlineMilliseconds: Int, service: @escaping @Sendable () -> String?,
         delayMilliseconds: Int = 1_000) {
        guard VaultTimeout.isInteractive, deadlineMilliseconds > delayMilliseconds, let show = VaultWaitNotice.current else {
            item = nil
            return
        }
        let seconds = VaultError.seconds(deadlineMilliseconds)
        let work = DispatchWorkItem { show(service(), seconds) }
        item = work
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delayMilliseconds), execute: work)
    }

    func cancel() { item?.cancel() }

    deinit { item?.cancel() }
}
