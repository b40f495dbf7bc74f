// OpenSSH's own software authenticator (sk-dummy.so, Debian's openssh-tests: what OpenSSH's
// regression suite signs with) and ssh-keygen as the oracle.
import Foundation
import KeyFormats
import TestSupport
import XCTest

enum SKDummy {
    static let path = "/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so"

    static func require() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: path), "openssh-tests is not installed (scripts/setup)")
    }

    /// A key made by `ssh-keygen -t TYPE -w sk-dummy.so` in `folder`, read back.
    static func keygen(_ type: String, in folder: TempFolder, name: String = "id") throws -> (key: PrivateKey, file: String) {
        let file = folder.file(name)
        let made = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", type, "-w", path, "-N", "", "-C", "sk-test", "-f", file])
        XCTAssertEqual(made.status, 0, made.stderr)
        let key = try PrivateKeyFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))), passphrase: nil).key
        return (key, file)
    }

    /// `ssh-keygen -Y verify` of an SSHSIG signature of `message` by `key`: its exit status.
    static func verifySSHSIG(_ signature: [UInt8], message: [UInt8], key: PublicKey, namespace: String,
                             in folder: TempFolder) throws -> (status: Int32, stderr: String) {
        let signers = folder.file("allowed_signers")
        try "signer@example \(key.line(comment: nil))\n".write(toFile: signers, atomically: true, encoding: .utf8)
        let sigFile = folder.file("message.sig")
        try Data(signature).write(to: URL(fileURLWithPath: sigFile))
        let messageFile = folder.file("message")
        try Data(message).write(to: URL(fileURLWithPath: messageFile))
        let verified = try Tool.run("/bin/sh", ["-c", "exec /usr/bin/ssh-keygen -Y verify -f \"$1\" -I signer@example -n \"$2\" -s \"$3\" < \"$4\"",
                                                 "sh", signers, namespace, sigFile, messageFile])
        return (verified.status, verified.stderr + verified.stdout)
    }
}
