// What a security-key provider and OpenSSH's ssh-sk-helper answer: sign responses into
// signature blobs, enrolments into keys, attestation blobs, the helper's framed replies
// (SecurityKeysFuzzEntry, which the replay test runs too).
@testable import SecurityKeys

func fuzzOne(_ bytes: [UInt8]) {
    SecurityKeysFuzzEntry.run(bytes)
}
