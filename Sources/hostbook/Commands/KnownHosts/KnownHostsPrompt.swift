// The terminal dialogues of trust on first use, worded after OpenSSH's (sshconnect.c):
// the approval prompt for an unknown key, and the blocking warning for a changed one.
import CommandLineKit
import System
import HostStore
import KeyFormats
import Workflows

enum KnownHostsPrompt {
    /// What ssh prints before "Are you sure you want to continue connecting": the host,
    /// the key type and SHA256 fingerprint, the randomart picture, and other names that
    /// already trust this key.
    static func approvalText(_ lookup: HostLookupName, key: PublicKey, otherNames: [String]) -> TerminalText {
        var text: TerminalText = "The authenticity of host \(KnownHostsAccess.describe(lookup)) can't be established.\n"
        text += "\(key.shortTypeName) key fingerprint is \(key.sha256Fingerprint).\n"
        text += "\(raw: key.randomart)\n"   // drawn by hostbook, several lines
        if otherNames.isEmpty {
            text += "This key is not known by any other names.\n"
        } else {
            text += "This key is already trusted for:\n"
            for name in otherNames.prefix(8) { text += "    \(name)\n" }
            if otherNames.count > 8 { text += "    (\(otherNames.count - 8) additional names omitted)\n" }
        }
        return text
    }

    /// Asks until the answer is yes, no, or the key's fingerprint (which counts as yes).
    static func askApproval(_ inv: Invocation, _ lookup: HostLookupName, key: PublicKey, otherNames: [String]) throws -> Bool {
        Output.write(approvalText(lookup, key: key, otherNames: otherNames), to: .standardError)
        var prompt: TerminalText = "Are you sure you want to trust this key (yes/no/[fingerprint])? "
        while true {
            let answer = try inv.ask(prompt, alternative: "--yes or --fingerprint SHA256:...")
            let lowered = answer.lowercased()
            if lowered == "yes" || answer == key.sha256Fingerprint { return true }
            if lowered == "no" { return false }
            prompt = "Please type 'yes', 'no' or the fingerprint: "
        }
    }

    /// The blocking warning for a changed key, after ssh's banner, with the stored keys and
    /// when and how each was trusted.
    static func changedText(_ lookup: HostLookupName, key: PublicKey, stored: [KnownHostRow]) -> TerminalText {
        let bar = String(repeating: "@", count: 59)
        var text: TerminalText = """
            \(bar)
            @    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
            \(bar)
            IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
            Someone could be eavesdropping on you right now (man-in-the-middle attack)!
            It is also possible that a host key has just been changed.
            The \(key.shortTypeName) key offered for \(KnownHostsAccess.describe(lookup)) has the fingerprint
                \(key.sha256Fingerprint)
            The stored key\(stored.count == 1 ? "" : "s") for this host:

            """
        for row in stored {
            text += "    \(KnownHostsAccess.describeStored(row)), \(KnownHostsAccess.provenance(row))"
            text += row.kind == .plain ? "\n" : " [entry '\(PrintableText.quoted(row.pattern))']\n"
        }
        return text
    }

    /// Shows the warning and replaces only when the new fingerprint is typed exactly.
    static func askReplace(_ inv: Invocation, _ lookup: HostLookupName, key: PublicKey, stored: [KnownHostRow]) throws -> Bool {
        Output.write(changedText(lookup, key: key, stored: stored), to: .standardError)
        let answer = try inv.ask("To replace the stored key, type the new key's fingerprint (anything else keeps the stored key): ",
                                 alternative: "--replace --fingerprint SHA256:...")
        return answer == key.sha256Fingerprint
    }
}

/// The workflows' questions, asked on this invocation's terminal.
struct TerminalHostKeyQuestions: HostKeyQuestions {
    let inv: Invocation

    func approve(_ lookup: HostLookupName, key: PublicKey, otherNames: [String]) throws -> Bool {
        try KnownHostsPrompt.askApproval(inv, lookup, key: key, otherNames: otherNames)
    }

    func replace(_ lookup: HostLookupName, key: PublicKey, stored: [KnownHostRow]) throws -> Bool {
        try KnownHostsPrompt.askReplace(inv, lookup, key: key, stored: stored)
    }
}
