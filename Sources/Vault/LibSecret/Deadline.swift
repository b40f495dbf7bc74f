// The deadline of one vault call. Every libsecret and GDBus call made for it gets this
// GCancellable; a timer on another thread cancels it when the time is up, so a Secret Service
// that never answers costs `milliseconds`, not D-Bus's default of 25 s per message.
internal import CLibSecret
import Dispatch

final class Deadline {
    let milliseconds: Int
    let cancellable: UnsafeMutablePointer<GCancellable>
    private let timer: DispatchWorkItem

    init(milliseconds: Int) {
        self.milliseconds = max(1, milliseconds)
        cancellable = g_cancellable_new()
        // The timer holds its own reference: it may fire after this Deadline is gone.
        let target = CancellableReference(cancellable)
        timer = DispatchWorkItem { target.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(self.milliseconds), execute: timer)
    }

    /// True once the timer has fired (every call made since fails with G_IO_ERROR_CANCELLED).
    var expired: Bool { g_cancellable_is_cancelled(cancellable) != 0 }

    deinit {
        timer.cancel()
        g_object_unref(cancellable)
    }
}

/// A reference to a GCancellable that the timer thread may use: g_cancellable_cancel is
/// thread-safe, and the reference count keeps the object alive until the timer is released.
private final class CancellableReference: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<GCancellable>

    init(_ pointer: UnsafeMutablePointer<GCancellable>) {
        self.pointer = pointer
        g_object_ref(pointer)
    }

    func cancel() { g_cancellable_cancel(pointer) }

    deinit { g_object_unref(pointer) }
}
