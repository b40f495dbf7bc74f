// Every refusal of the known-hosts workflows, as data: the raw names, keys and reasons.
// The program words each one, with its hint and exit code
// (hostbook/Commands/KnownHosts/KnownHostsRefusal+Presentation.swift).
import HostStore
import KeyFormats

public enum KnownHostsRefusal: Error, Equatable {
    /// HOST is not one plain host name or address (or `[host]:port`), and why.
    case notAHostName(String, reason: String)
    /// ssh-keyscan is not on PATH.
    case keyscanNotFound
    /// ssh-keyscan could not be started.
    case keyscanDidNotRun(reason: String)
    /// A scan of `host`:`port` found no key, and why (KeyscanFailure.diagnose).
    case scanFailed(host: String, port: Int, KeyscanFailure)
    /// The scan returned no key for the name.
    case noHostKeysFound(HostLookupName)
    /// A scan met keys that need an answer (new or changed) but nobody can be asked;
    /// `key` is the first of them.
    case scanNeedsAnswer(HostLookupName, key: PublicKey, Asking)
    /// A pasted key holds `count` key lines, not one.
    case pastedKeyLines(Int)
    /// A pasted key that does not parse, and why.
    case pastedKeyInvalid(reason: String)
    /// A pasted known_hosts line with a marker (`@revoked`, `@cert-authority`).
    case pastedKeyMarker(token: String)
    /// A pasted `host TYPE BASE64` line whose host field (`hosts`, raw) is not `lookup`.
    case pastedKeyForAnotherHost(hosts: String, lookup: HostLookupName)
    /// A known_hosts file that cannot be read, and why.
    case fileUnreadable(path: String, reason: String)
    /// A known_hosts file over FileBytes.maxSize.
    case fileTooLarge(path: String)
    /// An approval whose expected fingerprint is not the key's.
    case fingerprintMismatch(given: String, key: PublicKey)
    /// The key is revoked for the name: it cannot be approved.
    case revokedNotApprovable(HostLookupName, key: PublicKey)
    /// A new key needs the user's confirmation, and nobody can be asked.
    case approvalNeedsConfirmation(HostLookupName, key: PublicKey, Asking)
    /// The user declined a new key.
    case notApproved(HostLookupName)
    /// The user declined to replace the stored key with the changed one.
    case changedKeyKept(HostLookupName)
    /// A changed key, not replaced: nobody was asked and the replacement was not requested.
    case changedKeyNotReplaced(HostLookupName, stored: [KnownHostRow], key: PublicKey)
    /// `known-hosts rotation --off` for a name that is neither a saved host nor known.
    case rotationHostUnknown(HostLookupName)
}

/// Whether the user can be asked a question, or why not.
public enum Asking: Sendable, Equatable {
    case possible
    /// The user said not to ask (`--no-input`).
    case refused
    /// Standard input is not a terminal.
    case noTerminal
}

