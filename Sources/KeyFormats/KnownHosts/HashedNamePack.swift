// Hashed known_hosts names with HMAC's key schedule done ahead (RFC 2104 §2; hostfile.c
// host_hash). HMAC-SHA1(salt, name) = SHA1((K ⊕ opad) ‖ SHA1((K ⊕ ipad) ‖ name)) with K the
// 20-byte salt zero-padded to SHA-1's 64-byte block. Each pad is exactly one block, so the
// SHA-1 state after it (five 32-bit words, the "midstate") depends on the salt alone; with
// both midstates stored, testing a name costs two SHA-1 compressions per entry instead of
// four, and no HMAC context is re-keyed. The compressions are OpenSSL's (SHA_CTX resumed
// from the midstate: h0…h4 set, 512 bits counted, empty buffer).
//
// A record: inner midstate (20 bytes, words big-endian) ‖ outer midstate (20) ‖ mac (20) ‖
// the entry's row id (8, little-endian): 68 bytes. A pack is records back to back.
import Dispatch
internal import COpenSSL

public enum HashedNamePack {
    public static let recordLength = 68
    static let blockLength = 64

    /// Appends the record of `hashed` (whose row id is `id`) to `pack`.
    public static func append(_ hashed: HashedHostName, id: Int64, to pack: inout [UInt8]) {
        // The pad block and the record on the stack, the record appended in one piece (an
        // import appends 100,000s).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: blockLength + recordLength) { buffer in
            let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<blockLength])
            let record = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[blockLength...]))
            func midstate(pad: UInt8, at offset: Int) {
                for i in 0..<blockLength { block[i] = (i < hashed.salt.count ? hashed.salt[i] : 0) ^ pad }
                var context = SHA_CTX()
                SHA1_Init(&context)
                SHA1_Transform(&context, block.baseAddress)
                record.storeBytes(of: context.h0.bigEndian, toByteOffset: offset, as: UInt32.self)
                record.storeBytes(of: context.h1.bigEndian, toByteOffset: offset + 4, as: UInt32.self)
                record.storeBytes(of: context.h2.bigEndian, toByteOffset: offset + 8, as: UInt32.self)
                record.storeBytes(of: context.h3.bigEndian, toByteOffset: offset + 12, as: UInt32.self)
                record.storeBytes(of: context.h4.bigEndian, toByteOffset: offset + 16, as: UInt32.self)
            }
            midstate(pad: 0x36, at: 0)
            midstate(pad: 0x5c, at: 20)
            for i in 0..<20 { record[40 + i] = i < hashed.mac.count ? hashed.mac[i] : 0 }
            record.storeBytes(of: id.littleEndian, toByteOffset: 60, as: Int64.self)
            pack.append(contentsOf: UnsafeRawBufferPointer(record))
        }
    }

    /// True when `hashed` is the hash of `name`: the same answer as HMAC-SHA1, through the
    /// same low-level SHA-1 (no EVP provider to load, which costs a process ≈ 0.8 ms).
    public static func matches(_ hashed: HashedHostName, name: String) -> Bool {
        var record: [UInt8] = []
        append(hashed, id: 0, to: &record)
        return !record.withUnsafeBytes { matches(name: name, in: $0) }.isEmpty
    }

    /// Row ids of the records in `pack` whose mac is HMAC-SHA1(salt, `name`), in pack order.
    /// With `threads` > 1 the records are split into that many runs tested in parallel.
    public static func matches(name: String, in pack: UnsafeRawBufferPointer, threads: Int = 1) -> [Int64] {
        let count = pack.count / recordLength
        let name = Array(name.utf8)
        guard count > 0 else { return [] }
        let runs = max(1, min(threads, count / 1024))
        if runs == 1 { return scan(name: name, pack: pack, range: 0..<count) }
        let shared = ParallelScan(name: name, pack: pack, runs: runs)
        defer { shared.release() }
        let per = (count + runs - 1) / runs
        DispatchQueue.concurrentPerform(iterations: runs) { run in
            shared.found[run] = scan(name: shared.name, pack: shared.pack, range: (run * per)..<min(count, (run + 1) * per))
        }
        return shared.found.flatMap { $0 }
    }

    /// Longest name whose inner message (name, 0x80, 64-bit length) fits one block.
    static let oneBlockName = blockLength - 9

    static func scan(name: [UInt8], pack: UnsafeRawBufferPointer, range: Range<Int>) -> [Int64] {
        name.count <= oneBlockName ? scanByBlocks(name: name, pack: pack, range: range) : scanByUpdate(name: name, pack: pack, range: range)
    }

    /// The scan at its floor: exactly two SHA-1 compressions per record (SHA1_Transform),
    /// nothing else. After the ipad block the inner message is the name alone, the same for
    /// every record, so its padded block is made once; the outer message is the 20-byte
    /// inner digest, so its padded block is made once and only its first five words change.
    /// The digest is compared as words with the stored mac (big-endian), never serialized.
    static func scanByBlocks(name: [UInt8], pack: UnsafeRawBufferPointer, range: Range<Int>) -> [Int64] {
        var ids: [Int64] = []
        func block(_ message: [UInt8], after bytes: Int) -> [UInt8] {
            var b = message + [0x80] + [UInt8](repeating: 0, count: blockLength - 8 - message.count - 1)
            withUnsafeBytes(of: (UInt64(bytes + message.count) * 8).bigEndian) { b.append(contentsOf: $0) }
            return b
        }
        let inner = block(name, after: blockLength)
        var outer = block([UInt8](repeating: 0, count: 20), after: blockLength)
        var context = SHA_CTX()
        inner.withUnsafeBufferPointer { i in
            outer.withUnsafeMutableBytes { o in
                for r in range {
                    let record = pack.baseAddress! + r * recordLength
                    resume(&context, from: record)
                    SHA1_Transform(&context, i.baseAddress)
                    o.storeBytes(of: context.h0.bigEndian, toByteOffset: 0, as: UInt32.self)
                    o.storeBytes(of: context.h1.bigEndian, toByteOffset: 4, as: UInt32.self)
                    o.storeBytes(of: context.h2.bigEndian, toByteOffset: 8, as: UInt32.self)
                    o.storeBytes(of: context.h3.bigEndian, toByteOffset: 12, as: UInt32.self)
                    o.storeBytes(of: context.h4.bigEndian, toByteOffset: 16, as: UInt32.self)
                    resume(&context, from: record + 20)
                    SHA1_Transform(&context, o.baseAddress)
                    func mac(_ k: Int) -> UInt32 { UInt32(bigEndian: record.loadUnaligned(fromByteOffset: 40 + 4 * k, as: UInt32.self)) }
                    if context.h0 == mac(0) && context.h1 == mac(1) && context.h2 == mac(2) && context.h3 == mac(3) && context.h4 == mac(4) {
                        ids.append(Int64(littleEndian: record.loadUnaligned(fromByteOffset: 60, as: Int64.self)))
                    }
                }
            }
        }
        return ids
    }

    /// Names longer than one block: SHA1_Update and SHA1_Final from the midstates.
    static func scanByUpdate(name: [UInt8], pack: UnsafeRawBufferPointer, range: Range<Int>) -> [Int64] {
        var ids: [Int64] = []
        var inner = [UInt8](repeating: 0, count: 20)
        var outer = [UInt8](repeating: 0, count: 20)
        var context = SHA_CTX()
        name.withUnsafeBufferPointer { n in
            inner.withUnsafeMutableBufferPointer { i in
                outer.withUnsafeMutableBufferPointer { o in
                    for r in range {
                        let record = pack.baseAddress! + r * recordLength
                        resume(&context, from: record)
                        SHA1_Update(&context, n.baseAddress, n.count)
                        SHA1_Final(i.baseAddress, &context)
                        resume(&context, from: record + 20)
                        SHA1_Update(&context, i.baseAddress, 20)
                        SHA1_Final(o.baseAddress, &context)
                        if memcmp(o.baseAddress!, record + 40, 20) == 0 {
                            var id: Int64 = 0
                            withUnsafeMutableBytes(of: &id) { $0.copyMemory(from: UnsafeRawBufferPointer(start: record + 60, count: 8)) }
                            ids.append(Int64(littleEndian: id))
                        }
                    }
                }
            }
        }
        return ids
    }

    /// The SHA-1 state after one block whose chaining value is the midstate at `words`.
    static func resume(_ context: inout SHA_CTX, from words: UnsafeRawPointer) {
        func word(_ k: Int) -> UInt32 { UInt32(bigEndian: words.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)) }
        context.h0 = word(0)
        context.h1 = word(1)
        context.h2 = word(2)
        context.h3 = word(3)
        context.h4 = word(4)
        context.Nl = 512
        context.Nh = 0
        context.num = 0
    }
}

/// What the runs of a parallel scan share: the pack and name are only read, and run k
/// writes only `found[k]` (distinct slots of one allocation, never resized), so there is no
/// data race; the caller keeps `pack` alive until every run has returned.
final class ParallelScan: @unchecked Sendable {
    let name: [UInt8]
    let pack: UnsafeRawBufferPointer
    let found: UnsafeMutableBufferPointer<[Int64]>

    init(name: [UInt8], pack: UnsafeRawBufferPointer, runs: Int) {
        self.name = name
        self.pack = pack
        self.found = .allocate(capacity: runs)
        found.initialize(repeating: [])
    }

    func release() {
        found.deinitialize()
        found.deallocate()
    }
}
