// The keys recorded from PKCS#11 tokens (`keys import-token`): each a row of `keys` with
// location `token` (KeyLocation), and beside it in `token_keys` (TokenKeysSchema) the
// module, the token's identity and the object's CKA_ID. Nothing secret.
public import KeyFormats

/// Where a token key is: its module, its token, its object.
public struct TokenKeyPlace: Sendable, Equatable {
    public let module: String
    public let tokenLabel: String
    public let tokenManufacturer: String
    public let tokenModel: String
    public let tokenSerial: String
    public let objectID: [UInt8]
    public let objectLabel: String

    public init(module: String, tokenLabel: String, tokenManufacturer: String, tokenModel: String, tokenSerial: String,
                objectID: [UInt8], objectLabel: String) {
        self.module = module
        self.tokenLabel = tokenLabel
        self.tokenManufacturer = tokenManufacturer
        self.tokenModel = tokenModel
        self.tokenSerial = tokenSerial
        self.objectID = objectID
        self.objectLabel = objectLabel
    }
}

public struct TokenKeys {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { self.connection = database.connection }

    /// Saves each key (location `token`, format `pkcs11`) and where it is, in one
    /// transaction: all of them or none; refuses what KeyStore refuses (a name or
    /// fingerprint taken).
    @discardableResult
    public func insert(_ keys: [(name: String, publicKey: PublicKey, place: TokenKeyPlace)]) throws -> [StoredKey] {
        let store = KeyStore(connection: connection)
        return try connection.transaction {
            try keys.map { key in
                let stored = try store.insertRow(NewKey(uuid: UUIDString.random(), name: key.name, publicKey: key.publicKey,
                                                        comment: key.name, format: "pkcs11", location: .token))
                let p = key.place
                _ = try connection.run("""
                    INSERT INTO token_keys (key_id, module, token_label, token_manufacturer, token_model, token_serial, object_id, object_label)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.int(stored.id), .text(p.module), .text(p.tokenLabel), .text(p.tokenManufacturer), .text(p.tokenModel),
                          .text(p.tokenSerial), .blob(p.objectID), .text(p.objectLabel)])
                return stored
            }
        }
    }

    /// Where the token key `key` is; nil for a key that is not on a token.
    public func place(of key: StoredKey) throws -> TokenKeyPlace? {
        try connection.query("""
            SELECT module, token_label, token_manufacturer, token_model, token_serial, object_id, object_label
            FROM token_keys WHERE key_id = ?
            """, [.int(key.id)]).first.map { row in
            TokenKeyPlace(module: row.text(0) ?? "", tokenLabel: row.text(1) ?? "", tokenManufacturer: row.text(2) ?? "",
                          tokenModel: row.text(3) ?? "", tokenSerial: row.text(4) ?? "", objectID: row.blob(5) ?? [],
                          objectLabel: row.text(6) ?? "")
        }
    }
}
