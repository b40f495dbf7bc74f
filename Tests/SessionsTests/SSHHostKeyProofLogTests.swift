// What hostbook reads in ssh's log about the proof of announced host keys
// (SSHHostKeyProofLog), in-process, on lines as OpenSSH 9.2 writes them with
// `LogVerbose clientloop.c:client_input_hostkeys():*`: the forced lines are counted and not
// shown (unless -v), every other line is shown as it is, and ssh's own words for a refused
// proof are noticed. The end-to-end case is SSHHostKeyRotationTests.
import XCTest
import Sessions

final class SSHHostKeyProofLogTests: XCTestCase {
    func testTheForcedLinesAreReadAndNotShownAndARefusalIsNoticed() {
        var log = SSHHostKeyProofLog(showsForcedLines: false)
        XCTAssertFalse(log.read("debug3: clientloop.c:client_input_hostkeys():2338 (pid=1408): received RSA key SHA256:MZ5vFgWGFUx1RNByt/cBF24jsVJNDdCAA/JHntLM90A"))
        XCTAssertFalse(log.read("debug1: clientloop.c:client_input_hostkeys():2388 (pid=1408): searching /tmp/kh for [127.0.0.1]:22999 / (none)"))
        XCTAssertEqual(log.keysAsked, 0)
        XCTAssertFalse(log.read("debug3: clientloop.c:client_input_hostkeys():2468 (pid=1408): asking server to prove ownership for 2 keys"))
        XCTAssertEqual(log.keysAsked, 2)
        XCTAssertFalse(log.refused)
        XCTAssertTrue(log.read("Warning: Permanently added '[127.0.0.1]:22999' (ED25519) to the list of known hosts."))
        XCTAssertTrue(log.read("debug3: asking server to prove ownership for 9 keys"), "not a forced line: shown, not counted")
        XCTAssertEqual(log.keysAsked, 2)
        XCTAssertTrue(log.read("Server failed to confirm ownership of private host keys"))
        XCTAssertTrue(log.refused)
        var verbose = SSHHostKeyProofLog(showsForcedLines: true)
        XCTAssertTrue(verbose.read("debug3: clientloop.c:client_input_hostkeys():2468 (pid=1): asking server to prove ownership for 1 keys"))
        XCTAssertEqual(verbose.keysAsked, 1)
    }

    func testArgumentsThatSendTheLogElsewhereLeaveItAlone() {
        XCTAssertTrue(SSHHostKeyProofLog.allowed(sshArguments: []))
        XCTAssertTrue(SSHHostKeyProofLog.allowed(sshArguments: ["-t", "-o", "LogLevel=QUIET", "uptime", "-y", "-E"]), "a remote command's words")
        XCTAssertTrue(SSHHostKeyProofLog.allowed(sshArguments: ["-l", "yEs", "true"]), "an option's value")
        for arguments in [["-E", "/tmp/log"], ["-Elog"], ["-ty"], ["-y"], ["-o", "LogVerbose=*"]] {
            XCTAssertFalse(SSHHostKeyProofLog.allowed(sshArguments: arguments), "\(arguments)")
        }
        XCTAssertTrue(SSHHostKeyProofLog.verbose(sshArguments: ["-tvv", "true"]))
        XCTAssertFalse(SSHHostKeyProofLog.verbose(sshArguments: ["-o", "v", "-p22", "true", "-v"]), "an option value, a remote command")
    }
}
