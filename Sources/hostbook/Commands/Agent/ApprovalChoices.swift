// The answers an approval question takes, as `agent approve` and the per-session agent of
// `hostbook ssh` ask it: y (this request alone), n, and a (allow for the key's grant) only
// when a grant can be made. One owner for the question, for what a bad answer is told, and
// for reading an answer, so both terminals ask alike.
import CommandLineKit
import Sessions

struct ApprovalChoices: Equatable {
    /// The key's grant (`10m`); nil: no grant can be made, so no `a`.
    let grant: String?

    /// The question, without a line end.
    var question: TerminalText {
        grant.map { "Allow? [y]es once, [a]llow for \($0), [n]o: " } ?? "Allow? [y]es, [n]o: "
    }

    /// What a bad answer is told, before the question is asked again.
    var badAnswer: TerminalText { grant == nil ? "answer y or n" : "answer y, a or n" }

    /// The answer a typed line gives; nil for anything else.
    func answer(_ line: String) -> ApprovalAnswer? {
        switch line.trimmingCharacters(in: " \t").lowercased() {
        case "y", "yes": .allowOnce
        case "a" where grant != nil: .allowForGrant
        case "n", "no": .deny
        default: nil
        }
    }
}
