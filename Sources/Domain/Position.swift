// Position: fractional order keys (byte strings) so moving an item rewrites only that item's key.

/// A key in a manual order: a byte string compared lexicographically.
///
/// A key is a head byte, an integer part whose length the head gives (heads from 128 up have
/// `head - 127` bytes, heads below 128 have `128 - head` bytes and sort before them), and a fraction
/// that never ends in a zero byte. Appending or prepending steps the integer part, so a list built by
/// appending a million items has keys of 4 bytes; inserting between two neighbours bisects the fraction,
/// adding a byte every 8 insertions at the same spot. Keys are generated deterministically.
public struct Position: Hashable, Comparable, Sendable, CustomStringConvertible {
    // Storage: a key of up to 15 bytes (almost every key: a million appended items have keys of 4 bytes) is held
    // inline, with no allocation and nothing to count references of. `high` holds bytes 0 to 7 and `low` bytes 8 to
    // 14, big-endian and zero-padded, with the key's length in `low`'s last byte; a longer key keeps its first 15
    // bytes there too, the marker `spilled` as its length, and all its bytes in `spill`. So comparing `high` then
    // `low` as numbers orders keys as their bytes do (of two keys whose first 15 bytes agree, the shorter is a
    // prefix of the longer and sorts first), and only two spilled keys that agree on 15 bytes read `spill`.

    /// Bytes 0 to 7, big-endian, zero-padded: the key's first 8 bytes as one number (see `OrderKey`).
    let high: UInt64
    /// Bytes 8 to 14, big-endian, zero-padded, then the length (or `spilled`) in the last byte.
    let low: UInt64
    /// Every byte, for a key longer than 15 bytes; nil otherwise.
    let spill: [UInt8]?

    /// The length byte of a key longer than 15 bytes.
    private static let spilled: UInt64 = 0xFF

    /// The key's bytes.
    /// - Complexity: O(length): a new array unless the key is longer than 15 bytes.
    public var bytes: [UInt8] {
        if let spill { return spill }
        return withBytes { Array($0) }
    }

    /// The key's length in bytes.
    public var count: Int { spill?.count ?? Int(low & 0xFF) }

    /// Calls `body` with the key's bytes, making no array.
    /// - Complexity: O(1) besides `body`.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let spill { return try spill.withUnsafeBytes(body) }
        var words = (high.bigEndian, low.bigEndian)
        let count = Int(low & 0xFF)
        return try withUnsafeBytes(of: &words) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Wraps bytes produced by this type (read back from storage, for instance).
    /// - Complexity: O(length); an allocation only for a key longer than 15 bytes.
    public init<Bytes: Collection<UInt8>>(bytes: Bytes) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var index = 0
        for byte in bytes.prefix(15) {
            if index < 8 { high |= UInt64(byte) << (56 - 8 * index) }
            else { low |= UInt64(byte) << (56 - 8 * (index - 8)) }
            index += 1
        }
        let count = bytes.count
        self.high = high
        self.low = low | (count > 15 ? Position.spilled : UInt64(count))
        spill = count > 15 ? Array(bytes) : nil
    }

    /// The key given to the first item of an empty order.
    public static let initial = Position(bytes: [128, 0])

    /// Orders keys by their bytes, lexicographically.
    /// - Complexity: O(1) unless both are longer than 15 bytes and agree on the first 15: then O(length of the
    ///   common prefix).
    @inline(__always)
    public static func < (lhs: Position, rhs: Position) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    /// - Complexity: as `<`.
    @inline(__always)
    static func compare(_ lhs: Position, _ rhs: Position) -> Int {
        if lhs.high != rhs.high { return lhs.high < rhs.high ? -1 : 1 }
        if lhs.low != rhs.low { return lhs.low < rhs.low ? -1 : 1 }
        guard let left = lhs.spill, let right = rhs.spill else { return 0 }
        return compareBytes(left, right)
    }

    public static func == (lhs: Position, rhs: Position) -> Bool {
        lhs.high == rhs.high && lhs.low == rhs.low && lhs.spill == rhs.spill
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
        if let spill { hasher.combine(spill) }
    }

    /// The bytes in hexadecimal.
    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// A key strictly between `lower` and `upper`; nil stands for the start or the end of the order.
    /// - Precondition: `lower < upper` when both are given.
    /// - Complexity: O(key length).
    public static func between(_ lower: Position?, _ upper: Position?) -> Position {
        switch (lower, upper) {
        case (nil, nil):
            return initial
        case (let lower?, nil):
            return lower.integerPart.stepped(up: true)
        case (nil, let upper?):
            return upper.integerPart.stepped(up: false)
        case (let lower?, let upper?):
            precondition(lower < upper, "Position.between needs lower < upper")
            let integer = lower.integerPart
            if integer == upper.integerPart {
                return Position(bytes: integer.bytes + midpoint(lower.fraction, upper.fraction))
            }
            let next = integer.stepped(up: true)
            if next < upper { return next }
            return Position(bytes: integer.bytes + midpoint(lower.fraction, nil))
        }
    }

    /// `count` increasing keys strictly between `lower` and `upper` (nil: the start or the end),
    /// spread by bisection so that their length grows with log(count), not with count.
    /// - Complexity: O(count · key length).
    public static func between(_ lower: Position?, _ upper: Position?, count: Int) -> [Position] {
        var result: [Position] = []
        result.reserveCapacity(count)
        if upper == nil {
            var previous = lower
            for _ in 0..<count {
                let next = between(previous, nil)
                result.append(next)
                previous = next
            }
        } else if lower == nil {
            var following = upper
            for _ in 0..<count {
                let next = between(nil, following)
                result.append(next)
                following = next
            }
            result.reverse()
        } else {
            bisect(lower, upper, count: count, into: &result)
        }
        return result
    }

    private static func bisect(_ lower: Position?, _ upper: Position?, count: Int, into result: inout [Position]) {
        guard count > 0 else { return }
        let middle = between(lower, upper)
        let before = count / 2
        bisect(lower, middle, count: before, into: &result)
        result.append(middle)
        bisect(middle, upper, count: count - before - 1, into: &result)
    }

    /// The head byte and the integer bytes, without the fraction.
    private var integerPart: Position {
        Position(bytes: Array(bytes.prefix(1 + Position.integerLength(head: bytes[0]))))
    }

    /// The bytes after the integer part.
    private var fraction: ArraySlice<UInt8> {
        bytes.dropFirst(1 + Position.integerLength(head: bytes[0]))
    }

    /// Whether the bytes have the shape this type makes: a head, the integer bytes it announces, and a
    /// fraction that does not end in a zero byte. Keys read from outside (a restore) are checked with it.
    /// - Complexity: O(1) (the bytes are read in place).
    var isWellFormed: Bool {
        withBytes { bytes in
            guard let head = bytes.first else { return false }
            let fractionStart = 1 + Position.integerLength(head: head)
            return bytes.count == fractionStart || (bytes.count > fractionStart && bytes.last != 0)
        }
    }

    private static func integerLength(head: UInt8) -> Int {
        head >= 128 ? Int(head) - 127 : 128 - Int(head)
    }

    /// The next (or previous) integer key, moving to a longer or shorter integer part on overflow.
    private func stepped(up: Bool) -> Position {
        var result = bytes
        var index = result.count - 1
        while index > 0 {
            if up ? result[index] < 255 : result[index] > 0 {
                result[index] = up ? result[index] + 1 : result[index] - 1
                return Position(bytes: result)
            }
            result[index] = up ? 0 : 255
            index -= 1
        }
        let head = result[0]
        precondition(up ? head < 255 : head > 0, "Position space exhausted")
        let newHead = up ? head + 1 : head - 1
        return Position(bytes: [newHead] + Array(repeating: up ? 0 : 255, count: Position.integerLength(head: newHead)))
    }

    /// Digits (base 256, no trailing zero) of a fraction strictly between `lower` and `upper` (nil: 1.0).
    private static func midpoint(_ lower: ArraySlice<UInt8>, _ upper: ArraySlice<UInt8>?) -> [UInt8] {
        if let upper {
            var shared = 0
            while shared < upper.count,
                  (shared < lower.count ? lower[lower.startIndex + shared] : 0) == upper[upper.startIndex + shared] {
                shared += 1
            }
            if shared > 0 {
                return Array(upper.prefix(shared)) + midpoint(lower.dropFirst(shared), upper.dropFirst(shared))
            }
        }
        let lowerDigit = Int(lower.first ?? 0)
        let upperDigit = upper.map { Int($0[$0.startIndex]) } ?? 256
        if upperDigit - lowerDigit > 1 {
            return [UInt8((lowerDigit + upperDigit) / 2)]
        }
        if let upper, upper.count > 1 {
            return [upper[upper.startIndex]]
        }
        return [UInt8(lowerDigit)] + midpoint(lower.dropFirst(), nil)
    }
}

/// Lexicographic comparison of two byte strings: negative, zero or positive.
/// - Complexity: O(length of the common prefix).
@inline(__always)
func compareBytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    lhs.withUnsafeBufferPointer { left in
        rhs.withUnsafeBufferPointer { right in
            let shared = min(left.count, right.count)
            var index = 0
            while index < shared {
                let a = left[index]
                let b = right[index]
                if a != b { return a < b ? -1 : 1 }
                index += 1
            }
            return left.count - right.count
        }
    }
}
