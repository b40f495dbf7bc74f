// A Tailscale document read for an import: ImportFormats' reader over a ByteSource (a
// FileDescriptorSource for a file, stdin or tailscale's pipe), its refusal reported as
// every HostStore error is, `.unusableInput` (exit 1) with the reader's hint.
import ImportFormats

extension TailscaleImporter {
    /// The document `source` holds; an input that cannot be imported throws a
    /// `HostStoreError` of kind `.unusableInput`.
    public static func readDocument(_ source: any ByteSource) throws -> TailscaleDocument {
        do {
            return try TailscaleDocumentReader.read(source)
        } catch let e as TailscaleInputError {
            throw HostStoreError(.unusableInput, e.message, hint: e.hint)
        }
    }
}
