// `hostbook vault lock` without a desktop: stops the headless keyring's daemon and its bus.
// The login keyring stays in ~/.local/share/keyrings, encrypted by gnome-keyring; the next
// `vault unlock` starts both again.

extension HeadlessKeyring {
    /// Stops what runs at this user's headless bus; returns what was running (nil: nothing).
    @discardableResult
    public static func lock(environment: [String: String]) -> HeadlessKeyring? {
        guard let socket = HeadlessBus.existingSocket(environment: environment) else { return nil }
        let serial = try? serialize(socket)
        defer { withExtendedLifetime(serial) {} }
        guard let running = find(socket: socket) else {
            // A socket left by a bus that was killed.
            try? removeStaleSocket(socket)
            return nil
        }
        stopAll(socket: socket, busPID: running.busPID, address: running.address)
        return running
    }
}
