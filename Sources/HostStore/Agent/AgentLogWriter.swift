// Writes the standing agent's log from a thread of its own, on a connection of its own,
// so that a signature never waits for the database: `record` only queues (a short mutex,
// no I/O), and the writer thread looks up the names and writes what is queued in one
// transaction (one fsync however many rows), keeping the newest rows only
// (`HostDatabase.recordAgentUses`). The queue is bounded: when it is full (the database
// is held by another writer, or the disk is slow) a use is dropped and counted, never
// waited for. A refusal that repeats one already queued within `refusalWindowSeconds` —
// the same key, destination, forwarding and client executable — is counted, not written:
// a forwarded remote that asks again and again makes one row a minute, not one a request.
#if canImport(Glibc)
import Glibc
#endif
import System
import KeyFormats

/// One signature made or refused, as the agent saw it. The saved key's and hosts' names
/// are looked up when it is written.
public struct AgentUse: Sendable, Equatable {
    public var signed: Bool
    public var keyFingerprint: String
    /// The host key the connection was bound to (its destination, else its last hop).
    public var hostKeyBlob: [UInt8]?
    public var hostKeyFingerprint: String?
    public var forwarded: Bool
    public var clientPID: Int?
    public var clientExecutable: String?
    /// Why it was refused, when the agent knows (AgentLogEntry.reason).
    public var reason: String?
    /// How it was decided (AgentApprovals.Decision's word, or `namespace`); nil for any
    /// other refusal by the rules.
    public var decision: String? = nil
    /// The client and its ancestors, one a line.
    public var processChain: String? = nil
    /// The host keys of the hosts the agent was forwarded through, in order.
    public var forwardingHostKeyBlobs: [[UInt8]] = []
    /// The certificate the signature was asked for, as the log names it (its key id and
    /// serial); nil for a plain key.
    public var certificate: String? = nil

    public init(signed: Bool, keyFingerprint: String, hostKeyBlob: [UInt8]?, hostKeyFingerprint: String?,
                forwarded: Bool, clientPID: Int?, clientExecutable: String?, reason: String? = nil) {
        self.signed = signed
        self.keyFingerprint = keyFingerprint
        self.hostKeyBlob = hostKeyBlob
        self.hostKeyFingerprint = hostKeyFingerprint
        self.forwarded = forwarded
        self.clientPID = clientPID
        self.clientExecutable = clientExecutable
        self.reason = reason
    }
}

public final class AgentLogWriter: @unchecked Sendable {
    public static let queueCapacity = 1_024
    public static let refusalWindowSeconds: Double = 60
    /// Refusals remembered for coalescing; past this many the expired ones are forgotten
    /// (all of them, when none has expired).
    static let rememberedRefusals = 4_096

    public struct Counters: Sendable, Equatable {
        /// Rows written.
        public var written = 0
        /// Refusals not written because the same one was written within the window.
        public var coalesced = 0
        /// Uses lost: the queue was full, or the database refused the write.
        public var dropped = 0
    }

    private struct Queued {
        let at: String
        let use: AgentUse
    }

    private struct RefusalKey: Hashable {
        let keyFingerprint: String
        let hostKeyFingerprint: String?
        let forwarded: Bool
        let clientExecutable: String?
        let decision: String?
        let certificate: String?
    }

    private let database: HostDatabase
    private let rowsKept: Int
    private let capacity: Int
    private let window: Double
    private let clock: @Sendable () -> Double
    /// Its condition is broadcast whenever the queue, `writing` or `stopping` changes.
    private let lock = Lock()
    // Under `lock`:
    private var queue: [Queued] = []
    private var lastRefusal: [RefusalKey: Double] = [:]
    private var writing = false
    private var stopping = false
    private var counts = Counters()
    private var thread: pthread_t?

    /// Starts the writer on `database`, a connection only it uses (a writer waiting for the
    /// write lock holds its connection). `clock` is in seconds, monotonic.
    public init(database: HostDatabase, rowsKept: Int = HostDatabase.agentLogRowsKept, queueCapacity: Int = queueCapacity,
                refusalWindowSeconds: Double = refusalWindowSeconds, clock: @escaping @Sendable () -> Double = AgentLogWriter.monotonicSeconds) throws {
        self.database = database
        self.rowsKept = rowsKept
        self.capacity = max(1, queueCapacity)
        self.window = refusalWindowSeconds
        self.clock = clock
        do {
            // The thread holds the writer until it ends.
            thread = try Thread.spawn { [self] in run() }
        } catch {
            throw HostStoreError(.failed, "cannot start the agent log's writer: \(error.error)")
        }
    }


    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    public var counters: Counters { locked { counts } }

    /// Queues one use; never waits for the database.
    public func record(_ use: AgentUse) {
        locked {
            guard !stopping else { return }
            if !use.signed {
                let key = RefusalKey(keyFingerprint: use.keyFingerprint, hostKeyFingerprint: use.hostKeyFingerprint,
                                     forwarded: use.forwarded, clientExecutable: use.clientExecutable, decision: use.decision,
                                     certificate: use.certificate)
                let now = clock()
                if let last = lastRefusal[key], now - last < window {
                    counts.coalesced += 1
                    return
                }
                guard queue.count < capacity else { counts.dropped += 1; return }
                if lastRefusal.count >= Self.rememberedRefusals {
                    lastRefusal = lastRefusal.filter { now - $0.value < window }
                    if lastRefusal.count >= Self.rememberedRefusals { lastRefusal.removeAll() }
                }
                lastRefusal[key] = now
            } else {
                guard queue.count < capacity else { counts.dropped += 1; return }
            }
            queue.append(Queued(at: Self.timestamp(), use: use))
            lock.broadcast()
        }
    }

    /// Waits until everything queued so far is written (or dropped).
    public func flush() {
        locked {
            while !queue.isEmpty || writing { lock.wait() }
        }
    }

    /// Writes what is queued, then stops the thread; later uses are ignored.
    public func stop() {
        let running: pthread_t? = locked {
            stopping = true
            lock.broadcast()
            defer { thread = nil }
            return thread
        }
        if let running { Thread.join(running) }
    }

    private func run() {
        while true {
            let batch: [Queued]? = locked {
                while queue.isEmpty && !stopping { lock.wait() }
                if queue.isEmpty { return nil }
                defer { queue.removeAll(keepingCapacity: true) }
                writing = true
                return queue
            }
            guard let batch else { return }
            let written = (try? database.recordAgentUses(entries(batch), keepingNewest: rowsKept)) != nil
            locked {
                writing = false
                if written { counts.written += batch.count } else { counts.dropped += batch.count }
                lock.broadcast()
            }
        }
    }

    /// The rows for a batch, with the names as the database has them now (each key and
    /// host key looked up once per batch).
    private func entries(_ batch: [Queued]) -> [AgentLogEntry] {
        var keyNames: [String: String?] = [:]
        var destinations: [[UInt8]: String?] = [:]
        func names(trusting blob: [UInt8]) -> String? {
            if destinations[blob] == nil {
                let names = (try? KnownHostsStore(database: database).hostNames(trustingHostKey: blob)) ?? []
                destinations[blob] = .some(names.isEmpty ? nil : names.joined(separator: ", "))
            }
            return destinations[blob] ?? nil
        }
        return batch.map { q in
            let use = q.use
            if keyNames[use.keyFingerprint] == nil {
                keyNames[use.keyFingerprint] = .some((try? KeyStore(database: database).find(fingerprint: use.keyFingerprint))?.name)
            }
            let destination = use.hostKeyBlob.flatMap(names(trusting:))
            // A hop hostbook does not know is shown by its host key's fingerprint.
            let through = use.forwardingHostKeyBlobs.map { blob in
                names(trusting: blob) ?? ((try? PublicKey(blob: blob)).map { "host key \($0.sha256Fingerprint)" } ?? "an unknown host")
            }
            var entry = AgentLogEntry(at: q.at, signed: use.signed, keyName: keyNames[use.keyFingerprint] ?? nil,
                                      keyFingerprint: use.keyFingerprint, destination: destination,
                                      destinationFingerprint: use.hostKeyFingerprint, forwarded: use.forwarded,
                                      clientPID: use.clientPID, clientExecutable: use.clientExecutable, reason: use.reason)
            entry.decision = use.decision
            entry.processChain = use.processChain
            entry.forwardedThrough = through.isEmpty ? nil : through.joined(separator: " → ")
            entry.certificate = use.certificate
            return entry
        }
    }

    private func locked<R>(_ body: () -> R) -> R {
        lock.locked(body)
    }

    /// Now, as the log stores it: UTC, ISO 8601 with milliseconds.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var t = now.tv_sec
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(now.tv_nsec / 1_000_000, 3))Z"
    }
}
