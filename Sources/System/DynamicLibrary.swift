// A shared object loaded with dlopen(3) and its symbols found with dlsym(3): the one place
// that calls the dynamic loader (security-key providers are loaded this way). The library
// stays loaded for the life of the process: a provider may keep state (threads, a device
// open) that unloading would cut from under it, as ssh-sk-helper's single call never has to.
#if canImport(Glibc)
import Glibc
#endif

public struct DynamicLibrary: @unchecked Sendable {
    /// Why a library or one of its symbols could not be had: dlerror(3)'s words.
    public struct LoadError: Error, Sendable, Equatable {
        public let path: String
        /// The symbol asked for, nil when the library itself did not load.
        public let symbol: String?
        public let reason: String
    }

    public let path: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `path` (RTLD_NOW: every symbol resolved now, so a broken library fails here,
    /// RTLD_LOCAL: its symbols stay its own).
    public init(path: String) throws(LoadError) {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError(path: path, symbol: nil, reason: Self.lastError())
        }
        self.path = path
        self.handle = handle
    }

    /// The address of `name` in the library.
    public func symbol(_ name: String) throws(LoadError) -> UnsafeMutableRawPointer {
        _ = dlerror()
        guard let address = dlsym(handle, name) else {
            throw LoadError(path: path, symbol: name, reason: Self.lastError())
        }
        return address
    }

    private static func lastError() -> String {
        guard let text = dlerror() else { return "unknown error" }
        return String(cString: text)
    }
}
