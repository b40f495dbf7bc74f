// vault-probe: runs one VaultClient call in a process of its own, so tests can point it at
// a private D-Bus session (a locked keyring, no keyring, a hung keyring) through the
// environment without touching the session of the test process. Test helper only.
//
// TIMEOUT-MS "-" means the deadline hostbook chooses itself (VaultTimeout).
//
//   vault-probe DB-ID TIMEOUT-MS status
//   vault-probe DB-ID TIMEOUT-MS store KIND OWNER      secret on stdin
//   vault-probe DB-ID TIMEOUT-MS lookup KIND OWNER     prints the secret in hex, or "none"
//   vault-probe DB-ID TIMEOUT-MS delete KIND OWNER     prints "deleted" or "none"
//   vault-probe DB-ID TIMEOUT-MS items                 prints "KIND OWNER" for each item
//
// Errors: "error <kind>: <message>" on stderr, exit 1. Usage errors exit 2. A call waiting
// on a terminal (VaultWaitNotice) prints "vault-probe: waiting for SERVICE; giving up after
// SECONDS" on stdout, the service's name as the library gives it (hostbook's own line and
// its escaping are the executable's VaultWaitLine).
import SecureMemory
import Vault
#if canImport(Glibc)
import Glibc
#endif

func fail(_ text: String, code: Int32) -> Never {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(code)
}

// The session bus, as hostbook picks it at its start (before any thread).
VaultClient.pickSessionBusAtStartup()
VaultWaitNotice.show { service, seconds in
    let line = Array("vault-probe: waiting for \(service ?? "-"); giving up after \(seconds)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 3, let timeout = args[1] == "-" ? VaultTimeout.standardMilliseconds : Int(args[1]) else {
    fail("usage: vault-probe DB-ID TIMEOUT-MS status|store|lookup|delete [KIND OWNER]", code: 2)
}
let client = VaultClient(databaseID: args[0], timeoutMilliseconds: timeout)

func itemID() -> VaultItemID {
    guard args.count == 5, let kind = VaultItemKind(rawValue: args[3]) else {
        fail("vault-probe: \(args[2]) needs KIND (password|private-key) and OWNER", code: 2)
    }
    return VaultItemID(kind: kind, owner: args[4])
}

func readStandardInput() -> SecretBytes {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(0, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    Sodium.wipe(&buffer)
    return SecretBytes(consuming: &bytes)
}

do {
    switch args[2] {
    case "status":
        let health = VaultClient.health(timeoutMilliseconds: timeout)
        print(health.status.name)
        if let service = health.service { print("service \(service)") }
        if let collection = health.collection { print("collection \(collection)") }
        if let error = health.error { fail("error \(error.kind): \(error.text)", code: 1) }
    case "store":
        try client.store(readStandardInput(), for: itemID(), label: "hostbook test")
        print("stored")
    case "lookup":
        if let secret = try client.lookup(itemID()) {
            print(secret.withUnsafeBytes { $0.map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined() })
        } else {
            print("none")
        }
    case "items":
        for item in try client.allItems() { print("\(item.kind.rawValue) \(item.owner)") }
    case "delete":
        print(try client.delete(itemID()) ? "deleted" : "none")
    default:
        fail("vault-probe: unknown command \(args[2])", code: 2)
    }
} catch let error as VaultError {
    fail("error \(error.kind): \(error.text)", code: 1)
}
