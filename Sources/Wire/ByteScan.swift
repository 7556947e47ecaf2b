/// Word-at-a-time scans over UTF-8 bytes for the JSON parser and serializer: eight bytes per step.

/// Tests on eight bytes at once, loaded as one little-endian `UInt64`.
///
/// Each test sets the high bit of the bytes it finds. Borrows between bytes can set it in a byte above one
/// that is really found, never below, so the lowest flag is exact: its byte is the first one found.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Flags the bytes that are zero.
    @inline(__always)
    static func zeros(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// Flags the bytes equal to `byte`.
    @inline(__always)
    static func bytes(_ byte: UInt8, in word: UInt64) -> UInt64 {
        zeros(word ^ (ones &* UInt64(byte)))
    }

    /// Flags the bytes a JSON string must escape: `"`, `\`, and the control characters (below 0x20).
    @inline(__always)
    static func toEscape(_ word: UInt64) -> UInt64 {
        bytes(UInt8(ascii: "\""), in: word) | bytes(UInt8(ascii: "\\"), in: word) | (word &- ones &* 0x20) & ~word & highs
    }

    /// Flags the bytes that end plain ASCII text in a JSON string: those to escape, and non-ASCII ones.
    @inline(__always)
    static func endingPlainASCII(_ word: UInt64) -> UInt64 {
        bytes(UInt8(ascii: "\""), in: word) | bytes(UInt8(ascii: "\\"), in: word) | ((word &- ones &* 0x20) | word) & highs
    }

    /// Whether none of the bytes in `start[0..<count]` is one a JSON string must escape (`"`, `\`, or a control
    /// character). Every byte is looked at through whole words, the last word overlapping the one before it, so
    /// a short string costs one or two steps and no byte-by-byte loop.
    /// - Complexity: O(count), eight bytes per step.
    @inline(__always)
    static func needsNoEscape(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(start)
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                if toEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) != 0 { return false }
                index += 8
            }
            return toEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) == 0
        }
        if count >= 4 {
            // Two four-byte halves, overlapping when count < 8, in one word; none of their bytes is zero-padded.
            let first = UInt64(raw.loadUnaligned(as: UInt32.self))
            let last = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return toEscape(first | last << 32) == 0
        }
        for index in 0..<count {
            let byte = start[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        }
        return true
    }

    /// The index of the first byte in `start[0..<count]` that a JSON string must escape (`"`, `\`, or a
    /// control character), or `count` when there is none.
    /// - Complexity: O(count), eight bytes per step.
    @inline(__always)
    static func firstByteToEscape(_ start: UnsafePointer<UInt8>, count: Int) -> Int {
        var index = 0
        let raw = UnsafeRawPointer(start)
        while index + 8 <= count {
            let flags = toEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            let byte = start[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return count
    }

    /// The index of the first byte in `start[index..<count]` that ends plain ASCII text in a JSON string
    /// (`"`, `\`, a control character, or a non-ASCII byte), or `count` when there is none. The scan reads
    /// whole words up to `count`, so a short string followed by more input costs one step.
    /// - Complexity: O(count - index), eight bytes per step.
    @inline(__always)
    static func endOfPlainASCII(_ start: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var index = index
        let raw = UnsafeRawPointer(start)
        while index + 8 <= count {
            let flags = endingPlainASCII(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            let byte = start[index]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return count
    }
}
