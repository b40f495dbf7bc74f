// PEM public keys as `ssh-keygen -e -m PKCS8 / -m PEM` writes them (docs/formats.md, "PEM
// public keys"): `-----BEGIN PUBLIC KEY-----` (X.509 SubjectPublicKeyInfo: RSA, EC, Ed25519)
// and `-----BEGIN RSA PUBLIC KEY-----` (PKCS#1 RSAPublicKey), decoded by OpenSSL.

public enum PEMPublicKey {
    public static func parse(_ bytes: [UInt8]) throws -> PublicKey {
        let armor = try PEMArmor.parse(bytes)
        let structure: String
        let keyType: String?
        switch armor.label {
        case "PUBLIC KEY": structure = "SubjectPublicKeyInfo"; keyType = nil
        case "RSA PUBLIC KEY": structure = "type-specific"; keyType = "RSA"
        default:
            throw KeyFormatError.invalid("'\(armor.label.prefix(40))' is not a PEM public key (expected 'PUBLIC KEY' or 'RSA PUBLIC KEY')")
        }
        let der = armor.body.withUnsafeBytes { Array($0) }
        guard let key = EVPKey.decodePublic(der, structure: structure, keyType: keyType) else {
            throw KeyFormatError.invalid("the \(armor.label) data is damaged (not a valid \(keyType == nil ? "SubjectPublicKeyInfo" : "PKCS#1 RSAPublicKey"))")
        }
        let algorithm = try key.publicKeyAlgorithm()
        let publicKey = PublicKey(algorithm)
        // The same checks as for a key read from an SSH blob (RSA size, odd exponent).
        return try PublicKey(blob: publicKey.blob)
    }
}
