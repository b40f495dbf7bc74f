// A seeded generator for the tests that feed random input to a parser and only check that
// nothing crashes: each prints its seed, and HOSTBOOK_TEST_SEED=N replays a run exactly
// (`HOSTBOOK_TEST_SEED=N swift test --filter TheTest`). The oracle tests that generate the
// same inputs on every run give it a fixed seed.
import Foundation

/// SplitMix64: small and deterministic for a given seed; good enough for test inputs.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public let seed: UInt64

    /// The seed from HOSTBOOK_TEST_SEED, else a fresh random one; printed either way.
    public init(_ test: String = #function) {
        let given = ProcessInfo.processInfo.environment["HOSTBOOK_TEST_SEED"].flatMap { UInt64($0) }
        seed = given ?? UInt64.random(in: 1...UInt64.max)
        state = seed
        print("\(test): random seed \(seed) (replay with HOSTBOOK_TEST_SEED=\(seed))")
    }

    /// A fixed seed, not printed: the same sequence on every run.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n (n > 0): the next value modulo n.
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(100) < percent }

    public mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }
}
