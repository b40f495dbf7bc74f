// The deadline of one vault call. Every libsecret and GDBus call made for it gets this
// GCancellable; a timer on another thread cancels it when the time is up, so a Secret Service
// that never answers costs `milliseconds`, not D-Bus's default of 25 s per message.
// The deadline also remembers which program answers (once the connection knows), for the
// words of its errors and of the notice shown on a terminal while a call waits.
internal import CLibSecret
import Dispatch
import System

final class Deadline {
    let milliseconds: Int
    let cancellable: UnsafeMutablePointer<GCancellable>
    private let timer: DispatchWorkItem
    private let program = ProgramBox()
    private var notice: WaitNotice?

    /// Throws when libsecret cannot be loaded (LibSecret.requireLoaded).
    init(milliseconds: Int) throws(VaultError) {
        try LibSecret.requireLoaded()
        self.milliseconds = max(1, milliseconds)
        cancellable = LibSecret.g_cancellable_new()!
        // The timer holds its own reference: it may fire after this Deadline is gone.
        let target = CancellableReference(cancellable)
        timer = DispatchWorkItem { target.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(self.milliseconds), execute: timer)
        let program = self.program
        notice = WaitNotice(deadlineMilliseconds: self.milliseconds, service: { program.value?.name })
    }

    /// True once the timer has fired (every call made since fails with G_IO_ERROR_CANCELLED).
    var expired: Bool { LibSecret.g_cancellable_is_cancelled(cancellable) != 0 }

    /// The program that provides the Secret Service, once known.
    var service: SecretServiceProgram? {
        get { program.value }
        set { program.value = newValue }
    }

    /// Milliseconds left before the deadline (an estimate; 0 once expired).
    var remainingMilliseconds: Int {
        let elapsed = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
        return expired ? 0 : max(0, milliseconds - elapsed)
    }
    private let started = DispatchTime.now()

    deinit {
        timer.cancel()
        notice?.cancel()
        LibSecret.g_object_unref(cancellable)
    }
}

/// The answering program, read by the notice's timer thread.
private final class ProgramBox: Sendable {
    private let stored = Lock<SecretServiceProgram?>(nil)
    var value: SecretServiceProgram? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// A reference to a GCancellable that the timer thread may use: g_cancellable_cancel is
/// thread-safe, and the reference count keeps the object alive until the timer is released.
private final class CancellableReference: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<GCancellable>

    init(_ pointer: UnsafeMutablePointer<GCancellable>) {
        self.pointer = pointer
        _ = LibSecret.g_object_ref(pointer)
    }

    func cancel() { LibSecret.g_cancellable_cancel(pointer) }

    deinit { LibSecret.g_object_unref(pointer) }
}
