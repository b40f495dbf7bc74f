// The line hostbook writes when a vault call has been waiting a while on a terminal (the
// Vault library's VaultWaitNotice says when): the keyring is most likely showing a dialog
// that someone has to answer. Given to the library once, at start (main.swift).
import CommandLineKit
import System
import Vault

enum VaultWaitLine {
    /// `service`: the program that answers, when known; its name is its executable's, which
    /// anyone can choose: escaped, as every outside string hostbook prints (this line
    /// bypasses the program's output).
    static func text(service: String?, giveUpAfter seconds: String) -> String {
        let who = service?.escapedForTerminal ?? "the keyring"
        return "hostbook: waiting for \(who); answer its dialog if it shows one "
            + "(unlock, access request); giving up after \(seconds)\n"
    }

    /// Has the Vault library tell the user on stderr.
    static func install() {
        VaultWaitNotice.show { service, seconds in
            _ = Output.write(bytes: Array(text(service: service, giveUpAfter: seconds).utf8), to: FileDescriptor.standardError.rawValue)
        }
    }
}
