// What a PKCS#11 module answers: public key attribute values into SSH public keys, C_Sign
// answers into SSH signature blobs (TokensFuzzEntry, which the replay test runs too).
@testable import Tokens

func fuzzOne(_ bytes: [UInt8]) {
    TokensFuzzEntry.run(bytes)
}
