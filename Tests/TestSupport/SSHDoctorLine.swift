// The line `hostbook doctor` prints for the ssh on PATH, built from `ssh -V` itself.
import Foundation

public enum SSHDoctorLine {
    public static func expected() throws -> String {
        let path = "/usr/bin/ssh"
        guard FileManager.default.isExecutableFile(atPath: path) else { return "" }
        let banner = try Tool.run(path, ["-V"]).stderr
        let digits = banner.dropFirst("OpenSSH_".count).prefix { $0.isNumber || $0 == "." }.split(separator: ".")
        return "ssh: \(path), OpenSSH \(digits[0]).\(digits[1]), supports KnownHostsCommand.\n"
    }
}
