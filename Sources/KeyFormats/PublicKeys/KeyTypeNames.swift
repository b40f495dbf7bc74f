// The key type names OpenSSH 9.2 knows (`ssh -Q key`; docs/formats.md, "Key blobs"), used to tell a
// key type from an authorized_keys options prefix.

enum KeyTypeNames {
    static let plain: Set<String> = Set([PublicKey.ed25519Type, PublicKey.rsaType, PublicKey.dsaType,
                                         PublicKey.skEd25519Type, PublicKey.skECDSAType] + ECCurve.allCases.map(\.keyType))

    static func isKeyType(_ name: String) -> Bool {
        plain.contains(name) || Certificate.baseType(of: name) != nil
    }
}
