// Verifies a certificate's CA signature (PROTOCOL.certkeys): the signature key's signature
// over the certificate's signed bytes, with the same rules as every SSH signature
// (Signatures/SignatureVerification.swift).

enum CertificateSignature {
    static func verify(_ cert: Certificate) -> Bool {
        cert.signatureKey.verifies(signatureBlob: cert.signatureBlob, over: Array(cert.signedBytes))
    }
}
