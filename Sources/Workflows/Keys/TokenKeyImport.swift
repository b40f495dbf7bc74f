// `keys import-token`'s work: the public keys of a PKCS#11 token recorded in the database
// (their public halves, the token's identity and each object's CKA_ID), each under a free
// name; nothing secret is stored. With a PIN, it is checked on the token first.
import HostStore
import KeyFormats
import SecureMemory
import Tokens

public enum TokenKeyImport {
    public struct Request {
        public var module: String
        public var slot: UInt?
        public var label: String?
        /// Module paths allowed outside the system library folders.
        public var allowed: [String]
        /// Checked on the token before anything is recorded.
        public var pin: SecretBytes?
        /// Put before each key's name.
        public var prefix: String

        public init(module: String, slot: UInt?, label: String?, allowed: [String], pin: SecretBytes?, prefix: String) {
            self.module = module
            self.slot = slot
            self.label = label
            self.allowed = allowed
            self.pin = pin
            self.prefix = prefix
        }
    }

    public struct Result {
        public let token: TokenInfo
        public let recorded: [(key: StoredKey, place: TokenKeyPlace)]
        /// Keys recorded already (left as they are).
        public let skipped: Int
    }

    /// Records the token's keys; a TokenError when the module or the token fails.
    public static func run(_ request: Request, workspace: Workspace) throws -> Result {
        let module = try TokenModule.load(path: request.module, allowed: request.allowed)
        let token = try module.token(slot: request.slot, label: request.label)
        if let pin = request.pin { try module.checkPIN(pin, on: token) }
        let objects = try module.publicKeys(on: token)

        let ctx = try KeysContext.open(workspace)
        let place = { (object: TokenKeyObject) in
            TokenKeyPlace(module: request.module, tokenLabel: token.label, tokenManufacturer: token.manufacturer, tokenModel: token.model,
                          tokenSerial: token.serial, objectID: object.id, objectLabel: object.label)
        }
        var new: [(name: String, publicKey: PublicKey, place: TokenKeyPlace)] = []
        var taken = Set<String>()
        var skipped = 0
        for object in objects {
            let fingerprint = object.publicKey.sha256Fingerprint
            if try ctx.store.find(fingerprint: fingerprint) != nil || new.contains(where: { $0.publicKey == object.publicKey }) {
                skipped += 1
                continue
            }
            let base = request.prefix + baseName(object)
            let name = try ctx.store.freeName(base, besides: taken)
            try KeyName.validate(name)
            taken.insert(name.lowercased())
            new.append((name, object.publicKey, place(object)))
        }
        let stored = try KeysRefusal.database(.saveTokenKeys) { try TokenKeys(database: ctx.database).insert(new) }
        return Result(token: token, recorded: zip(stored, new).map { ($0.0, $0.1.place) }, skipped: skipped)
    }

    /// The object's label when it makes a key name, else "token-key".
    public static func baseName(_ object: TokenKeyObject) -> String {
        KeyName.problem(object.label) == nil && !object.label.isEmpty ? object.label : "token-key"
    }
}
