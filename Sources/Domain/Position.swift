// Position: fractional order keys (byte strings) so moving an item rewrites only that item's key.

/// A key in a manual order: a byte string compared lexicographically.
///
/// A key is a head byte, an integer part whose length the head gives (heads from 128 up have
/// `head - 127` bytes, heads below 128 have `128 - head` bytes and sort before them), and a fraction
/// that never ends in a zero byte. Appending or prepending steps the integer part, so a list built by
/// appending a million items has keys of 4 bytes; inserting between two neighbours bisects the fraction,
/// adding a byte every 8 insertions at the same spot. Keys are generated deterministically.
public struct Position: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key's bytes.
    public let bytes: [UInt8]

    /// Wraps bytes produced by this type (read back from storage, for instance).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The key given to the first item of an empty order.
    public static let initial = Position(bytes: [128, 0])

    /// Orders keys by their bytes, lexicographically.
    /// - Complexity: O(length of the common prefix).
    public static func < (lhs: Position, rhs: Position) -> Bool {
        compareBytes(lhs.bytes, rhs.bytes) < 0
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
    var isWellFormed: Bool {
        guard let head = bytes.first else { return false }
        let fractionStart = 1 + Position.integerLength(head: head)
        return bytes.count == fractionStart || (bytes.count > fractionStart && bytes.last != 0)
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
