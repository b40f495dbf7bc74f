// The words of the SessionRefusal cases of git signing, team bundles and the installed
// configuration (SessionRefusal+Presentation.swift): each line and hint byte for byte
// as they were when the Sessions library worded them itself, and the exit code.
// Which case each situation throws is SessionsTests'.
import CommandLineKit
@testable import hostbook
import Sessions
import XCTest

final class SessionRefusalBundleWordingTests: XCTestCase {
    private func reported(_ refusal: SessionRefusal) -> String {
        var text: TerminalText = "hostbook: \(refusal.message)\n"
        if let hint = refusal.hint { text += "\(hint)\n" }
        return text.text
    }

    func testGitSigningRefusalsAreWordedAsBefore() {
        let usage = "hostbook signs as 'ssh-keygen -Y sign -n NAMESPACE -f PUBLIC_KEY_FILE [FILE ...]'.\n"
        let cases: [(SessionRefusal, ExitCode, String)] = [
            (.signUsage(.missingNamespace), .rejected, "hostbook: ssh-keygen -Y sign: -n NAMESPACE is missing\n" + usage),
            (.signUsage(.missingKeyFile), .rejected, "hostbook: ssh-keygen -Y sign: -f KEYFILE is missing\n" + usage),
            (.signUsage(.needsValue(option: "-f")), .rejected, "hostbook: ssh-keygen -Y sign: -f needs a value\n" + usage),
            (.signUsage(.unsupportedHashAlgorithm("md5")), .rejected, "hostbook: ssh-keygen -Y sign: hashalg must be sha256 or sha512, not md5\n" + usage),
            (.signUsage(.unsupportedSigningOption("print-pubkey")), .rejected,
             "hostbook: ssh-keygen -Y sign: the option -O print-pubkey is not supported (only hashalg=sha256 or sha512)\n" + usage),
            (.signUsage(.unsupportedOption("-Z")), .rejected, "hostbook: ssh-keygen -Y sign: the option -Z is not supported\n" + usage),
            (.signInputNotRead(reason: "EIO"), .failure, "hostbook: cannot read the data to sign from standard input: EIO\n"),
            (.signatureNotWritten(reason: "EPIPE"), .failure, "hostbook: cannot write the signature to standard output: EPIPE\n"),
            (.signatureFileNotWritten(file: "/t/m", reason: "denied"), .failure, "hostbook: cannot write /t/m.sig: denied\n"),
            (.signFileNotRead(keyFile: true, path: "/k", opening: true, limit: nil, reason: "No such file or directory"), .failure,
             "hostbook: cannot open the key file /k: No such file or directory\n"),
            (.signFileNotRead(keyFile: false, path: "/m", opening: false, limit: 65536, reason: "tooLong"), .failure,
             "hostbook: cannot read the file to sign /m: longer than 65536 bytes\n"),
            (.signFileNotRead(keyFile: false, path: "/m", opening: false, limit: nil, reason: "EIO"), .failure,
             "hostbook: cannot read the file to sign /m: EIO\n"),
            (.gitNotInstalled(forBundles: false), .failure,
             "hostbook: git is not installed (no 'git' on PATH)\nInstall git (Debian: apt install git), then run this again.\n"),
            (.gitConfigFailed(name: "gpg.format", gitSays: "error: no"), .failure,
             "hostbook: git config gpg.format failed: error: no\nThe key is set up in hostbook; fix what git says, then run this again.\n"),
            (.notAGitRepository(path: "/r"), .failure,
             "hostbook: /r is not a git repository\nGive the folder of a repository with --repo (make one with 'git init'), or use --global.\n"),
            (.notAGitRepository(path: nil), .failure,
             "hostbook: the current folder is not in a git repository\nRun this inside a repository, or give one with --repo PATH, or use --global.\n"),
            (.noGitEmail(global: true), .rejected,
             "hostbook: no email to sign as: git's user.email is not set globally\nGive it with --email E (it is also set as user.email there).\n"),
            (.noGitEmail(global: false), .rejected,
             "hostbook: no email to sign as: git's user.email is not set for this repository\nGive it with --email E (it is also set as user.email there).\n"),
            (.gitEmailRefused(problem: "an email has no spaces", email: "a b"), .rejected,
             "hostbook: an email has no spaces: a b\nGive another email with --email E.\n"),
            (.folderNotCreated(path: "/x", reason: "EACCES"), .failure, "hostbook: cannot create /x: EACCES\n"),
            (.programNotRun(program: "/usr/bin/git", reason: "E2BIG"), .failure, "hostbook: cannot run /usr/bin/git: E2BIG\n"),
        ]
        for (refusal, code, text) in cases {
            XCTAssertEqual(reported(refusal), text)
            XCTAssertEqual(refusal.exitCode, code, "\(refusal)")
        }
    }

    func testBundleRefusalsAreWordedAsBefore() {
        let large = "A bundle file that large is not one hostbook wrote.\n"
        let changed = "Check who changed that folder (git log -p); restore the bundle.txt and bundle.txt.sig you exported, or export into a new folder with -o DIR.\n"
        let cases: [(SessionRefusal, ExitCode, String)] = [
            (.gitNotInstalled(forBundles: true), .failure,
             "hostbook: git is not installed (no 'git' on PATH); bundles are subscribed to through git\nInstall git (Debian: apt install git), then run this again.\n"),
            (.bundleNameRefused(problem: "a bundle name is letters"), .rejected, "hostbook: a bundle name is letters\n"),
            (.bundleURLRefused(problem: "a URL with a password"), .rejected,
             "hostbook: a URL with a password\nGive the repository's URL or path as git clone takes it (for a password, use git's credential helper or an SSH URL).\n"),
            (.bundleFileNotWritten(file: "/o/bundle.txt", reason: "it exists"), .failure,
             "hostbook: cannot write /o/bundle.txt: it exists\nCheck that the folder exists and is writable (-o DIR).\n"),
            (.bundleFileNotRead(path: "/o/bundle.txt", reason: "EIO"), .failure, "hostbook: cannot read /o/bundle.txt: EIO\n"),
            (.bundleFileTooLarge(path: "/o/bundle.txt", limit: 4 << 20), .rejected, "hostbook: /o/bundle.txt is larger than 4096 KiB\n" + large),
            (.gitFileTooLarge(file: "bundle.txt", folder: "/b/team", commit: "0123456789ab", limit: 4 << 20), .rejected,
             "hostbook: bundle.txt in /b/team (commit 0123456789ab) is larger than 4096 KiB\n" + large),
            (.gitListingUnknown(file: "bundle.txt", folder: "/b/team", commit: "0123456789ab"), .failure,
             "hostbook: git listed bundle.txt in /b/team (commit 0123456789ab) in a form hostbook does not know\n"),
            (.gitTimedOut(what: "clone x", minutes: 10), .failure,
             "hostbook: git could not clone x: no answer within 10 minutes\nCheck the URL and your network, then run the command again.\n"),
            (.exportFolderNotABundle(path: "/o/bundle.txt", reason: "line 1"), .failure,
             "hostbook: /o/bundle.txt is not a bundle: line 1\nExport into another folder with -o DIR, or remove that file.\n"),
            (.exportFolderHoldsOther(path: "/o/bundle.txt", other: "a", bundle: "b"), .rejected,
             "hostbook: /o/bundle.txt holds bundle 'a', not 'b'\nExport bundle 'b' into its own folder with -o DIR.\n"),
            (.bundleSerialExhausted(bundle: "b", serial: 7), .rejected,
             "hostbook: the serial of bundle 'b' (7) is too large to be raised\nExport bundle 'b' under a new name into a new folder, and have subscribers trust and subscribe to that.\n"),
            (.exportFolderNotSigned(path: "/o/bundle.txt", reason: "bad"), .rejected,
             "hostbook: /o/bundle.txt is not signed by a trusted key (bad); its serial is not taken\n" + changed),
            (.exportFolderSignerUnknown(path: "/o/bundle.txt", fingerprint: "SHA256:x", bundle: "b"), .rejected,
             "hostbook: /o/bundle.txt is not signed by a trusted key (signed by SHA256:x, which is neither a key of this database nor a trusted signer of bundle 'b'); its serial is not taken\n" + changed),
            (.bundleUnreadable(shownAs: "/o/bundle.txt", reason: "line 2"), .rejected,
             "hostbook: /o/bundle.txt is not a bundle hostbook can read: line 2\nIt was signed, so its publisher made it: ask them to export it again with this hostbook.\n"),
            (.keyCannotSignBundles(key: "k", type: "ssh-dss"), .rejected,
             "hostbook: key 'k' (ssh-dss) cannot sign bundles here\nSign with an Ed25519, ECDSA or RSA key.\n"),
            (.bundleSignatureInvalid(reason: "digest"), .rejected,
             "hostbook: the bundle's signature is not valid: digest\nThe bundle or its signature was changed after it was signed; ask its publisher for a freshly exported one.\n"),
        ]
        for (refusal, code, text) in cases {
            XCTAssertEqual(reported(refusal), text)
            XCTAssertEqual(refusal.exitCode, code, "\(refusal)")
        }
    }

    func testInstalledConfigurationRefusalsAreWordedAsBefore() {
        let fix = "hostbook never writes a Host block that would override one of yours, so it needs to read them; fix the file (ssh refuses it too).\n"
        XCTAssertEqual(reported(.installPathNotWritable(path: "/c/hostbook", reason: "a quote")),
                       "hostbook: the path /c/hostbook cannot be written in ssh_config: a quote\nSet XDG_CONFIG_HOME to a plainer folder.\n")
        XCTAssertEqual(reported(.userSSHConfigUnreadable(file: "/h/.ssh/config", line: 3, reason: "bad", tooLarge: false)),
                       "hostbook: cannot read your ssh configuration to find the hosts it defines: '/h/.ssh/config' line 3: bad\n" + fix)
        XCTAssertEqual(reported(.userSSHConfigUnreadable(file: "/f", line: 0, reason: "big", tooLarge: true)),
                       "hostbook: cannot read your ssh configuration to find the hosts it defines: '/f': big\n" + fix)
        XCTAssertEqual(SessionRefusal.userSSHConfigUnreadable(file: "/f", line: 0, reason: "big", tooLarge: true).exitCode, .rejected)
        XCTAssertEqual(SessionRefusal.userSSHConfigUnreadable(file: "/f", line: 0, reason: "x", tooLarge: false).exitCode, .failure)
        XCTAssertEqual(SessionRefusal.installPathNotWritable(path: "/p", reason: "r").exitCode, .failure)
    }
}
