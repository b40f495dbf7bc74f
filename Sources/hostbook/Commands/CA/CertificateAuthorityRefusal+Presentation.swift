// The CA store's refusals as the user sees them.
import HostStore
import Workflows

extension CertificateAuthorityRefusal: UserFacingError {
    var exitCode: ExitCode {
        switch self {
        case .notFound, .serialNotIssued: .notFound
        case .nameTaken, .keyTaken, .serialsExhausted: .rejected
        }
    }

    var message: String {
        switch self {
        case .nameTaken(let name): "a certificate authority named '\(name)' already exists"
        case .keyTaken(let name): "that key is already certificate authority '\(name)'"
        case .notFound(let name): "no certificate authority named '\(name)'"
        case .serialNotIssued(let ca, let serial, let last):
            last == 0 ? "certificate authority '\(ca)' has signed no certificate yet, so serial \(serial) does not exist"
                : "certificate authority '\(ca)' never gave serial \(serial) (its serials run from 1 to \(last))"
        case .serialsExhausted(let name): "certificate authority '\(name)' has given its last serial"
        }
    }

    var hint: String? {
        switch self {
        case .nameTaken: "Choose another name, or see them with 'hostbook ca list'."
        case .keyTaken: nil
        case .notFound: "See the certificate authorities with 'hostbook ca list', or make one with 'hostbook ca create NAME'."
        case .serialNotIssued(let ca, _, _): "See what it signed with 'hostbook ca log \(ShellQuote.quote(ca))'."
        case .serialsExhausted: "Create a new certificate authority."
        }
    }
}
