/// The one seeded generator of the tests and the benchmarks, with the draws their randomized runs share.

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator whose whole sequence is fixed by its seed, on
/// every platform and Swift version, so a randomized run that failed replays exactly from the seed it reports.
///
/// As a `RandomNumberGenerator` it feeds the standard library (`Int.random(in:using:)`, `shuffled(using:)`),
/// whose ways of drawing from a range may change between Swift versions; the draws below (`below`, `chance`,
/// `pick`, ...) are written here on `next()` alone, so a sequence made only of them never changes.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0 ..< bound`; `bound` must be positive.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(\(bound))")
        return Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `elements`, which must not be empty.
    public mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    /// `count` elements at distinct positions, in the order of `elements`.
    public mutating func sample<Element>(_ elements: [Element], count: Int) -> [Element] {
        var positions = Array(elements.indices)
        for index in 0..<count { positions.swapAt(index, index + below(positions.count - index)) }
        return positions[0..<count].sorted().map { elements[$0] }
    }

    /// Picks a choice by weight; a weight of zero is never picked, and the weights must not all be zero.
    public mutating func weighted<Choice>(_ choices: [(Choice, Int)]) -> Choice {
        var roll = below(choices.reduce(0) { $0 + $1.1 })
        for (choice, weight) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        preconditionFailure("weights must be positive")
    }
}
