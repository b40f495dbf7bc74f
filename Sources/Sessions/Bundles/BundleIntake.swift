// What `bundle import` and `bundle update` do with a bundle's two files before anything is
// written, in this order (each refusal is `.rejected`, one line and the command that helps):
//   1. no signature file: unsigned;
//   2. the signature does not verify over exactly the text's bytes in namespace
//      `hostbook-bundle` (a changed byte in either file);
//   3. the text does not parse (BundleText, bounded);
//   4. for a subscription: the document names another bundle;
//   5. no signer is trusted for the document's NAME: `hostbook bundle trust NAME --signer`;
//      the key that signed is not one of them: unknown signer;
//   6. HostStore's plan (BundleStore.plan): a serial lower than the one applied (a replayed
//      old bundle) or a reused one is refused there (BundleRefusal).
// The text is parsed after the signature is checked, so only signed bytes reach the parser
// beyond the signature check; the name it holds then picks the trusted signers.
public import HostStore
public import ImportFormats
public import KeyFormats

public struct BundleIntake: Sendable {
    public let document: BundleDocument
    public let signer: PublicKey
    public let plan: BundlePlan

    /// Checks `text` and `signature` (the files' bytes; nil: missing) for `database`.
    /// `shownAs` names the bundle's text file in messages; `expectedName` is the
    /// subscription's name (update), nil for an import.
    public static func check(text: [UInt8], signature: [UInt8]?, shownAs: String, expectedName: String?,
                             database: HostDatabase) throws -> BundleIntake {
        let signer = try BundleSignature.signer(of: text, signature: signature, shownAs: shownAs)
        let document: BundleDocument
        do {
            document = try BundleText.parse(text)
        } catch {
            throw SessionRefusal.bundleUnreadable(shownAs: shownAs, reason: "\(error)")
        }
        let name = document.name
        if let expectedName, expectedName != name {
            throw SessionRefusal.bundleRenamed(subscribedAs: expectedName, name: name)
        }
        let store = BundleStore(database: database)
        let trusted = try store.signers(bundle: name)
        if trusted.isEmpty {
            throw SessionRefusal.noTrustedSigner(bundle: name)
        }
        guard trusted.contains(signer) else {
            throw SessionRefusal.untrustedSigner(bundle: name, fingerprint: signer.sha256Fingerprint, signerLine: signer.line())
        }
        let plan = try store.plan(document, bundle: name)
        return BundleIntake(document: document, signer: signer, plan: plan)
    }
}
