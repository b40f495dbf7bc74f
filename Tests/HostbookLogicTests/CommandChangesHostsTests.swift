// Which commands rewrite the installed ssh configuration after they succeed is a property
// of each command's spec (CommandSpec.changesHostsOrKeys), not a list of command words
// kept apart from the commands.
@testable import hostbook
import XCTest

final class CommandChangesHostsTests: XCTestCase {
    func testTheCommandsThatChangeHostsOrKeysSaySo() {
        let changing = Set(CommandTable.all.filter(\.changesHostsOrKeys).map { $0.words.joined(separator: " ") })
        XCTAssertEqual(changing, ["add", "edit", "remove", "import-tailscale", "import-ssh-config",
                                  "keys import", "keys import-resident", "keys import-agent", "keys import-token", "keys cert add", "keys cert remove", "keys generate", "keys remove", "keys deploy", "keys edit", "git setup",
                                  "bundle import", "bundle subscribe", "bundle update", "bundle unsubscribe"])
    }
}
