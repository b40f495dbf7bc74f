// The agent's workflows in-process, on real files, sockets and SQLite: which sockets the
// agents sign through, what the standing agent's socket path may hold, where git's signing
// program looks for the agent, and the second connection the agent's log writes through.
import Foundation
import HostStore
import System
import TestSupport
import Workflows
import XCTest

final class AgentWorkflowTests: XCTestCase {
    func testTheUpstreamSocketsAreTheGivenThenTheSavedOnesEachOnceWithoutTheAgentsOwn() throws {
        let folder = try TempFolder()
        let workspace = Workspace(environment: ["HOME": folder.path], databasePath: folder.file("h.db"))
        let database = try workspace.database()
        XCTAssertTrue(try UpstreamAgentSockets.add("/run/a.sock", database: database))
        XCTAssertFalse(try UpstreamAgentSockets.add("/run/a.sock", database: database), "saved once")
        XCTAssertTrue(try UpstreamAgentSockets.add("/run/own.sock", database: database))
        XCTAssertEqual(try UpstreamAgentSockets.all(given: ["/run/g.sock", "/run/a.sock"], database: database, ownSocket: "/run/own.sock"),
                       ["/run/g.sock", "/run/a.sock"])
        XCTAssertEqual(try UpstreamAgentSockets.all(given: ["/run/g.sock"], database: nil, ownSocket: nil), ["/run/g.sock"])
        XCTAssertTrue(try UpstreamAgentSockets.remove("/run/a.sock", database: database))
        XCTAssertFalse(try UpstreamAgentSockets.remove("/run/a.sock", database: database))
    }

    func testASavedSocketNobodyListensOnIsListedAsNotAnswering() throws {
        let folder = try TempFolder()
        let database = try Workspace(environment: [:], databasePath: folder.file("h.db")).database()
        _ = try UpstreamAgentSockets.add(folder.file("gone.sock"), database: database)
        let states = try UpstreamAgentSockets.states(database: database)
        XCTAssertEqual(states.map(\.socket), [folder.file("gone.sock")])
        guard case .failure? = states.first?.state else { return XCTFail("\(states)") }
        XCTAssertTrue(try UpstreamAgentSockets.states(database: nil).isEmpty)
    }

    func testOnlyASocketIsASocketAndOnlyAStaleSocketIsRemoved() throws {
        let folder = try TempFolder()
        let file = folder.file("plain")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        XCTAssertFalse(StandingAgentSocket.isSocket(file))
        XCTAssertFalse(StandingAgentSocket.isSocket(folder.file("missing")))
        XCTAssertThrowsError(try StandingAgentSocket.removeStale(file)) { error in
            XCTAssertEqual(error as? AgentRefusal, .notAnAgentSocket(path: file))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file), "what is not a socket is left alone")

        let socket = folder.file("stale.sock")
        let fd = try UnixSocket.listen(at: socket)
        XCTAssertTrue(StandingAgentSocket.isSocket(socket))
        XCTAssertNotNil(StandingAgentSocket.runningAgent(at: socket), "a socket of this user that answers")
        close(fd)
        XCTAssertNil(StandingAgentSocket.runningAgent(at: socket), "nobody answers once it is closed")
        try StandingAgentSocket.removeStale(socket)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
    }

    func testGitsProgramLooksForTheAgentAtItsOwnSocketThenSSHAuthSock() throws {
        let folder = try TempFolder()
        XCTAssertEqual(GitSigningProgram.sockets(["XDG_RUNTIME_DIR": folder.file("none")]), ["$XDG_RUNTIME_DIR/hostbook/agent.sock"])
        XCTAssertEqual(GitSigningProgram.sockets(["XDG_RUNTIME_DIR": folder.file("none"), "SSH_AUTH_SOCK": "/tmp/a"]), ["/tmp/a"])
        XCTAssertEqual(GitSigningProgram.sockets(["SSH_AUTH_SOCK": "relative"]).count, 1, "a relative SSH_AUTH_SOCK is not asked")
        XCTAssertFalse(GitSigningProgram.agentAnswers([folder.file("nobody.sock")]))
    }

    func testTheAgentsLogWritesThroughASecondConnection() throws {
        let folder = try TempFolder()
        let workspace = Workspace(environment: [:], databasePath: folder.file("h.db"))
        let database = try workspace.database()
        let separate = try workspace.separateDatabase()
        XCTAssertFalse(database === separate)
        XCTAssertFalse(separate.isReadOnly)
        XCTAssertTrue(database === (try workspace.database()), "the command's own handle is unchanged")
    }
}

final class ApproverConnectionTests: XCTestCase {
    func testNoAgentIsRefusedBeforeAnythingIsConnected() throws {
        let folder = try TempFolder()
        XCTAssertThrowsError(try ApproverConnection(agentSocket: folder.file("agent.sock"))) { error in
            XCTAssertEqual(error as? AgentRefusal, .noAgent(path: folder.file("agent.sock")))
        }
    }

    func testAnAgentWithNoApprovalSocketTakesNoApprovals() throws {
        let folder = try TempFolder()
        let socket = folder.file("agent.sock")
        let fd = try UnixSocket.listen(at: socket)
        defer { close(fd) }
        XCTAssertThrowsError(try ApproverConnection(agentSocket: socket)) { error in
            XCTAssertEqual(error as? AgentRefusal, .takesNoApprovals(agentSocket: socket))
        }
    }
}
