// CRC32: the IEEE 802.3 checksum (zlib's crc32) that guards every header, record and snapshot payload.

/// CRC-32 as zlib and Ethernet compute it: polynomial 0xEDB88320 (reflected), initial value and final
/// XOR 0xFFFFFFFF. `checksum("123456789".utf8)` is 0xCBF43926.
///
/// Continuing over a second buffer: pass the first buffer's checksum as `seed`;
/// `checksum(b, seed: checksum(a))` equals the checksum of `a` followed by `b`. The default seed, 0,
/// starts a new checksum.
public enum CRC32 {
    /// The checksum of `bytes`, continuing from `seed` (the checksum of the bytes before them, or 0).
    /// - Complexity: O(n); eight bytes per step (slicing-by-8) when the bytes are contiguous.
    public static func checksum<C: Collection>(_ bytes: C, seed: UInt32 = 0) -> UInt32 where C.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ update(~seed, $0) }) {
            return ~result
        }
        var crc = ~seed
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }

    /// The checksum of raw bytes (a mapped file, say), continuing from `seed` as above.
    /// - Complexity: O(n), eight bytes per step.
    public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return seed }
        return ~update(~seed, UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    /// Runs the register `crc` (not inverted here) over `bytes`.
    private static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc = crc
            var index = 0
            let count = bytes.count
            while count - index >= 8 {
                let low = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                    | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                let high = UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8
                    | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int(high >> 8 & 0xFF)]
                    ^ table[256 + Int(high >> 16 & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
            return crc
        }
    }

    /// Eight tables of 256 entries, one after the other: table 0 is the byte-at-a-time table, table k
    /// advances an entry of table k - 1 by one more zero byte.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            table[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(slice - 1) * 256 + byte]
                table[slice * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()
}
