// The keys recorded from PKCS#11 tokens (`keys import-token`), in `token_keys`
// (TokenKeysSchema): their public halves and where they live, nothing secret.
public import KeyFormats

public struct TokenKeyRecord: Sendable, Equatable {
    public let name: String
    public let publicKey: PublicKey
    public let module: String
    public let tokenLabel: String
    public let tokenManufacturer: String
    public let tokenModel: String
    public let tokenSerial: String
    public let objectID: [UInt8]
    public let objectLabel: String

    public init(name: String, publicKey: PublicKey, module: String, tokenLabel: String, tokenManufacturer: String,
                tokenModel: String, tokenSerial: String, objectID: [UInt8], objectLabel: String) {
        self.name = name
        self.publicKey = publicKey
        self.module = module
        self.tokenLabel = tokenLabel
        self.tokenManufacturer = tokenManufacturer
        self.tokenModel = tokenModel
        self.tokenSerial = tokenSerial
        self.objectID = objectID
        self.objectLabel = objectLabel
    }

    public var fingerprint: String { publicKey.sha256Fingerprint }
}

public struct TokenKeys {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { self.connection = database.connection }

    /// Records `keys` in one transaction: all of them or none.
    public func insert(_ keys: [TokenKeyRecord]) throws {
        try connection.transaction {
            for key in keys {
                _ = try connection.run("""
                    INSERT INTO token_keys (name, key_type, public_key, fingerprint, module, token_label, token_manufacturer,
                                            token_model, token_serial, object_id, object_label, added_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))
                    """, [.text(key.name), .text(key.publicKey.type), .blob(key.publicKey.blob), .text(key.fingerprint),
                          .text(key.module), .text(key.tokenLabel), .text(key.tokenManufacturer), .text(key.tokenModel),
                          .text(key.tokenSerial), .blob(key.objectID), .text(key.objectLabel)])
            }
        }
    }

    /// Every token key, by name.
    public func all() throws -> [TokenKeyRecord] {
        try connection.query("""
            SELECT name, public_key, module, token_label, token_manufacturer, token_model, token_serial, object_id, object_label
            FROM token_keys ORDER BY name
            """).compactMap { row in
            guard let name = row.text(0), let blob = row.blob(1), let publicKey = try? PublicKey(blob: blob) else { return nil }
            return TokenKeyRecord(name: name, publicKey: publicKey, module: row.text(2) ?? "", tokenLabel: row.text(3) ?? "",
                                  tokenManufacturer: row.text(4) ?? "", tokenModel: row.text(5) ?? "", tokenSerial: row.text(6) ?? "",
                                  objectID: row.blob(7) ?? [], objectLabel: row.text(8) ?? "")
        }
    }

    /// Whether a token key has this name or fingerprint.
    public func exists(name: String) throws -> Bool {
        try !connection.query("SELECT 1 FROM token_keys WHERE name = ?", [.text(name)]).isEmpty
    }

    public func exists(fingerprint: String) throws -> Bool {
        try !connection.query("SELECT 1 FROM token_keys WHERE fingerprint = ?", [.text(fingerprint)]).isEmpty
    }
}
