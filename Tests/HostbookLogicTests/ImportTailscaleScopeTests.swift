// A Tailscale document speaks only for its tailnet (issue 18): a crafted status whose peers
// are named github.com and gitlab.com, with public addresses, must pre-trust no key for
// those names or addresses. Checked in-process (InProcessCommand runs Hostbook.main): the
// import of the document, the report naming every name it refused, and `known-hosts check`
// calling the keys unknown. Moved from HostbookTests/ImportTailscaleScopeTests.
import Foundation
import TestSupport
@testable import hostbook
import XCTest

final class ImportTailscaleScopeTests: XCTestCase, TestHostKeys {
    /// A status from the tailnet tail4f21c8.ts.net with two hostile peers: `github.com.` with
    /// public addresses only, and `gitlab.com.` with a Tailscale IP beside a public one.
    func hostileStatus() -> String {
        """
        {
          "BackendState": "Running",
          "MagicDNSSuffix": "tail4f21c8.ts.net",
          "CurrentTailnet": {"Name": "example.com", "MagicDNSSuffix": "tail4f21c8.ts.net", "MagicDNSEnabled": true},
          "Self": {"ID": "nSelf", "PublicKey": "nodekey:01", "HostName": "laptop", "DNSName": "laptop.tail4f21c8.ts.net.",
                   "OS": "linux", "TailscaleIPs": ["100.70.0.1"], "Online": true},
          "Peer": {
            "nodekey:02": {"ID": "nGitHub", "PublicKey": "nodekey:02", "HostName": "github", "DNSName": "github.com.", "OS": "linux",
                           "TailscaleIPs": ["140.82.112.3", "2606:50c0:8000::154"], "Online": true, "sshHostKeys": ["\(keyA)"]},
            "nodekey:03": {"ID": "nGitLab", "PublicKey": "nodekey:03", "HostName": "gitlab", "DNSName": "gitlab.com.", "OS": "linux",
                           "TailscaleIPs": ["100.80.9.1", "172.65.251.78"], "Online": true, "sshHostKeys": ["\(keyB)"]}
          }
        }
        """
    }

    func testAHostileDocumentPreTrustsNoKeyOutsideTheTailnet() throws {
        let fx = try InProcessCommand()
        let path = fx.dir.file("hostile-status.json")
        try hostileStatus().write(toFile: path, atomically: true, encoding: .utf8)

        let r = try fx.run(["import-tailscale", path, "--all"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            ACTION   NAME    HOSTNAME                  DETAILS
            skipped  laptop  laptop.tail4f21c8.ts.net  this machine
            skipped  github  github.com                'github.com' is not a MagicDNS name of the tailnet (the tailnet's MagicDNS suffix is tail4f21c8.ts.net) and it has no Tailscale IP
            added    gitlab  100.80.9.1                linux, online, 1 host key, 'gitlab.com' is not a MagicDNS name of the tailnet: dialled at its Tailscale IP
            1 added, 0 updated, 0 unchanged, 2 skipped; 1 host-key entry trusted.

            """)
        XCTAssertEqual(r.stderr, """
            hostbook: warning: gitlab: host keys not trusted for gitlab.com: not a MagicDNS name of the tailnet (the tailnet's MagicDNS suffix is tail4f21c8.ts.net)
            hostbook: warning: gitlab: host keys not trusted for 172.65.251.78: not a Tailscale address (100.64.0.0/10 or fd7a:115c:a1e0::/48)

            """)

        // The keys are unknown for every name and address outside the tailnet (exit 10)...
        for (name, key) in [("github.com", keyA), ("140.82.112.3", keyA), ("2606:50c0:8000::154", keyA),
                            ("gitlab.com", keyB), ("172.65.251.78", keyB)] {
            let check = try fx.run(["known-hosts", "check", name, "--key", key])
            XCTAssertEqual(check.status, 10, "\(name): \(check.stdout)\(check.stderr)")
            XCTAssertEqual(check.stdout, "unknown: no key is known for '\(name)'\n", name)
        }
        // ... and trusted for the Tailscale IP the host is dialled at.
        XCTAssertEqual(try fx.run(["known-hosts", "check", "100.80.9.1", "--key", keyB]).status, 0)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: fx.run(["known-hosts", "list", "--json"]).stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(list.map { $0["host"] as? String ?? "" }, ["100.80.9.1"], "the only entry the import wrote")

        // The JSON report names each refused name, with the reason, in key_problems.
        let json = try fx.run(["import-tailscale", path, "--all", "--dry-run", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdoutBytes) as? [String: Any])
        let problems = try XCTUnwrap(object["key_problems"] as? [[String: Any]])
        XCTAssertEqual(problems.map { "\($0["host"] ?? "") \($0["pattern"] ?? "") \($0["type"] ?? "")" },
                       ["gitlab gitlab.com ", "gitlab 172.65.251.78 "])
        XCTAssertEqual(problems.map { $0["reason"] as? String ?? "" }, [
            "not a MagicDNS name of the tailnet (the tailnet's MagicDNS suffix is tail4f21c8.ts.net)",
            "not a Tailscale address (100.64.0.0/10 or fd7a:115c:a1e0::/48)",
        ])
        let hosts = try XCTUnwrap(object["hosts"] as? [[String: Any]])
        XCTAssertEqual(hosts.first { $0["node_id"] as? String == "nGitHub" }?["action"] as? String, "skipped")
    }
}
