// A home for the tests of `import-ssh-config --take-over`, in-process and on a terminal
// alike: ~/.ssh/config is a symbolic link to dotfiles/ssh_config, written with CR LF line
// endings and mode 0640, holding a `Host *` block, a plain host and a host with a pattern.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct TakeOverHome: Sendable {
    /// The user's own configuration, as written in the dotfile.
    public static let original = "Host *\r\n  ServerAliveInterval 30\r\n\r\nHost db\r\n  HostName 10.0.0.7\r\n  User root\r\n\r\nHost web staging-*\r\n  HostName web.example\r\n"

    public let home: String
    /// ~/.ssh/config, the link.
    public let userConfig: String
    /// The file the link names.
    public let dotfile: String
    /// hostbook's installed configuration in this home.
    public let generated: String
    /// The copy the take-over keeps beside the user's configuration.
    public var backup: String { (userConfig as NSString).deletingLastPathComponent + "/.config.hostbook-takeover" }
    /// HOME and XDG_CONFIG_HOME for the commands run in this home.
    public var environment: [String: String] { ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"] }

    /// Makes the home in `folder`/home.
    public init(in folder: String) throws {
        home = folder + "/home"
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/dotfiles", withIntermediateDirectories: true)
        dotfile = home + "/dotfiles/ssh_config"
        try Data(Self.original.utf8).write(to: URL(fileURLWithPath: dotfile))
        userConfig = home + "/.ssh/config"
        generated = home + "/.config/hostbook/ssh_config"
        guard chmod(dotfile, 0o640) == 0, symlink("../dotfiles/ssh_config", userConfig) == 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno))
        }
    }
}
