// Key files and names in-process: the default name of a key file, the refusals of reading
// (a folder, more than 1 MiB) and of writing over a file, and the free names an agent's keys
// are saved under (a real SQLite database, no vault).
import Foundation
import HostStore
import KeyFormats
import SecureMemory
import TestSupport
import Workflows
import XCTest

final class KeyFilesTests: XCTestCase {
    func testTheDefaultNameDropsTheKeyFilesExtension() {
        let table = [("/home/a/.ssh/id_ed25519", "id_ed25519"), ("work.pem", "work"), ("putty.ppk", "putty"), ("x/server.key", "server"),
                     (".pem", ".pem"), ("a.pem.key", "a.pem"), ("dir/", "dir")]
        for (path, name) in table { XCTAssertEqual(KeyFiles.defaultName(for: path), name, path) }
    }

    func testAFolderATooLargeFileAndAnExistingOutputAreRefused() throws {
        let folder = try TempFolder()
        XCTAssertThrowsError(try KeyFiles.read(folder.path)) {
            guard case .isAFolder(folder.path) = $0 as? KeysRefusal else { return XCTFail("\($0)") }
        }
        let missing = folder.file("missing")
        XCTAssertThrowsError(try KeyFiles.read(missing)) {
            guard case .unreadable(missing, "No such file or directory") = $0 as? KeysRefusal else { return XCTFail("\($0)") }
        }
        let big = folder.file("big")
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: Data(count: KeyFiles.maxSize + 1)))
        XCTAssertThrowsError(try KeyFiles.read(big)) {
            guard case .keyFileTooLarge(big) = $0 as? KeysRefusal else { return XCTFail("\($0)") }
        }
        let exact = folder.file("exact")
        XCTAssertTrue(FileManager.default.createFile(atPath: exact, contents: Data(repeating: 0x41, count: KeyFiles.maxSize)))
        XCTAssertEqual(try KeyFiles.read(exact).count, KeyFiles.maxSize)

        let out = folder.file("out")
        try KeyFiles.writeNew(out, SecretBytes(copying: Array("first".utf8)))
        XCTAssertThrowsError(try KeyFiles.writeNew(out, SecretBytes(copying: Array("second".utf8)))) {
            guard case .outputExists(out) = $0 as? KeysRefusal else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "first")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int, 0o600)
    }

    func testAnAgentsKeyIsNamedAfterItsCommentWhenThatIsFree() throws {
        let folder = try TempFolder()
        let store = try Workspace(environment: ["HOME": folder.path], databasePath: folder.file("hostbook.db")).credentials().keys
        let first = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "").publicKey
        let second = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "").publicKey
        XCTAssertEqual(try AgentKeyImport.freeName(for: first, comment: "/home/a/.ssh/id_work", store, besides: []), "id_work")
        _ = try store.insert(NewKey(uuid: UUIDString.random(), name: "id_work", publicKey: first, comment: "", format: "agent", location: .upstream))
        let fallback = try AgentKeyImport.freeName(for: second, comment: "/home/a/.ssh/ID_WORK", store, besides: [])
        XCTAssertTrue(fallback.hasPrefix("agent-") && fallback.count == "agent-".count + 8, fallback)
        XCTAssertEqual(try AgentKeyImport.freeName(for: second, comment: "", store, besides: [fallback.lowercased()]), fallback + "-2")
        XCTAssertTrue(try AgentKeyImport.freeName(for: second, comment: " bad name", store, besides: []).hasPrefix("agent-"))
    }
}
