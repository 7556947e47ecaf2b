/// A pull reader over JSON bytes: a typed decoder asks for the members and values it expects, and no `JSON` tree
/// is built for them.

/// Reads one JSON document piece by piece, in the order a caller asks for them: an object's members (each key
/// recognized from its bytes among the keys the caller knows), strings, integers, booleans, `null`, arrays, and
/// any other value as `JSON` when the caller has no typed reader for it.
///
/// It is a fast path, not a judge: it reads only what is valid JSON (the same checks as `JSONParser`: UTF-8,
/// escapes, numbers, nesting) in the shape the caller expects, and stops (`Stop`) at anything else: a syntax
/// error, an unexpected type, an unknown or repeated key, a key with escapes. A caller that stops reads the same
/// bytes the general way (`JSONParser`, `Message.decode`, the type's `init(json:path:)`), which accepts or refuses
/// them and says exactly why; so what the reader accepts must be what the general way accepts, with the same value.
public struct JSONPullReader: ~Copyable {
    var parser: JSONParser
    /// Per level of nesting (bit `depth`), whether the open object or array has had a member or element.
    private var started: UInt64 = 0

    /// Why the reader stopped: the bytes are not valid JSON, or not in the shape the caller reads.
    public struct Stop: Error, Sendable {
        /// A stop.
        public init() {}
    }

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        parser = JSONParser(base: base, count: count, maxDepth: maxDepth)
    }

    /// Reads the whole document `bytes` with `body`: the value when `body` returns and only whitespace follows what it
    /// read, nil when it stops or anything else does.
    /// - Complexity: O(n) in the input's length, plus what `body` does.
    public static func read<Value>(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256, _ body: (inout JSONPullReader) throws(Stop) -> Value
    ) -> Value? {
        guard let address = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var reader = JSONPullReader(base: address.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth)
        reader.parser.skipWhitespace()
        if reader.parser.hasByteOrderMark() { return nil }
        do {
            let value = try body(&reader)
            reader.parser.skipWhitespace()
            return reader.parser.position == reader.parser.count ? value : nil
        } catch {
            return nil
        }
    }

    // MARK: Containers

    /// Opens the object that must come next.
    public mutating func beginObject() throws(Stop) {
        try open(UInt8(ascii: "{"))
    }

    /// Opens the array that must come next.
    public mutating func beginArray() throws(Stop) {
        try open(UInt8(ascii: "["))
    }

    private mutating func open(_ bracket: UInt8) throws(Stop) {
        parser.skipWhitespace()
        guard parser.byte(at: parser.position) == bracket, parser.depth < 63 else { throw Stop() }
        do { try parser.enterContainer() } catch { throw Stop() }
        parser.position += 1
        started &= ~(1 &<< UInt64(parser.depth))
    }

    /// Skips whitespace, calling the parser only when there is some (what the server writes has none).
    @inline(__always)
    private mutating func skipWhitespace() {
        if parser.byte(at: parser.position) <= 0x20 { parser.skipWhitespace() }
    }

    /// Steps over the `,` before the open container's next member or element, or its closing `close` (then
    /// returns false).
    private mutating func advance(closing close: UInt8) throws(Stop) -> Bool {
        skipWhitespace()
        let bit: UInt64 = 1 &<< UInt64(parser.depth)
        let byte = parser.byte(at: parser.position)
        if byte == close {
            parser.position += 1
            parser.depth -= 1
            return false
        }
        if started & bit != 0 {
            guard byte == UInt8(ascii: ",") else { throw Stop() }
            parser.position += 1
            skipWhitespace()
        }
        started |= bit
        return true
    }

    /// The next member's key of the open object, as its index in `keys`, with the reader at its value; nil when the
    /// object closes. A key not in `keys`, or written with escapes or non-ASCII bytes, stops the reader.
    ///
    /// The key at `expected` (the one that usually comes next), then the one after it, are tried first, with the
    /// separator, quotes and colon as they are written without whitespace (`,"title":`), compared a word at a time.
    /// - Complexity: O(1) when the expected key comes next as written; else O(keys) comparisons of lengths, and one
    ///   of bytes per key of the same length.
    public mutating func nextMember(_ keys: borrowing JSONKeys, expecting expected: Int = 0) throws(Stop) -> Int? {
        let bit: UInt64 = 1 &<< UInt64(parser.depth)
        let separated = started & bit != 0
        let available = parser.count - parser.position
        // The expected key, or the one after it (an optional member left out, as `dueLocal` usually is).
        for guess in expected...expected + 1 {
            if let length = keys.matchLength(guess, at: parser.base + parser.position, available: available, separated: separated) {
                parser.position += length
                started |= bit
                return guess
            }
        }
        guard try advance(closing: UInt8(ascii: "}")) else { return nil }
        let base = parser.base
        guard parser.byte(at: parser.position) == UInt8(ascii: "\"") else { throw Stop() }
        let first = parser.position + 1
        let end = ByteScan.endOfPlainASCII(base, from: first, count: parser.count)
        guard end < parser.count, base[end] == UInt8(ascii: "\"") else { throw Stop() }
        guard let index = keys.index(of: base + first, count: end - first, expecting: expected) else { throw Stop() }
        parser.position = end + 1
        skipWhitespace()
        guard parser.byte(at: parser.position) == UInt8(ascii: ":") else { throw Stop() }
        parser.position += 1
        return index
    }

    /// Whether the open array has another element (the reader is then at it); false when the array closes.
    public mutating func nextElement() throws(Stop) -> Bool {
        try advance(closing: UInt8(ascii: "]"))
    }

    // MARK: Values

    /// The string that must come next.
    /// - Complexity: O(length); plain ASCII is found eight bytes at a time and made straight from the input.
    public mutating func string() throws(Stop) -> String {
        skipWhitespace()
        guard parser.byte(at: parser.position) == UInt8(ascii: "\"") else { throw Stop() }
        do { return try parser.parseString() } catch { throw Stop() }
    }

    /// The integer that must come next: a literal with no fraction or exponent within `Int64` (anything else stops).
    public mutating func integer() throws(Stop) -> Int64 {
        skipWhitespace()
        // A plain non-negative integer of at most 18 digits is read here; anything else by the parser.
        let base = parser.base
        var index = parser.position
        var value: Int64 = 0
        while index < parser.count, index - parser.position < 18 {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        let length = index - parser.position
        if length > 0, length < 18, index < parser.count, length == 1 || base[parser.position] != UInt8(ascii: "0") {
            switch base[index] {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                parser.position = index
                return value
            default: break
            }
        }
        let byte = parser.byte(at: parser.position)
        guard byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else { throw Stop() }
        guard case .integer(let value) = try self.value() else { throw Stop() }
        return value
    }

    /// The boolean that must come next.
    public mutating func bool() throws(Stop) -> Bool {
        skipWhitespace()
        if matches("true") { return true }
        if matches("false") { return false }
        switch parser.byte(at: parser.position) {
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            guard case .bool(let flag) = try value() else { throw Stop() }
            return flag
        default: throw Stop()
        }
    }

    /// Steps over `null` when it comes next and says so; leaves anything else to be read.
    public mutating func null() throws(Stop) -> Bool {
        skipWhitespace()
        guard parser.byte(at: parser.position) == UInt8(ascii: "n") else { return false }
        if matches("null") { return true }
        guard try value() == .null else { throw Stop() }
        return true
    }

    /// Steps over a string of `letter` then 1 to 19 ASCII digits, the first not 0 (an id as the server spells it:
    /// `"i42"`), when it comes next, and answers the digits' value; leaves anything else to be read (nil).
    /// - Complexity: O(length).
    public mutating func letterAndDecimal(_ letter: UInt8) -> UInt64? {
        skipWhitespace()
        let base = parser.base
        let start = parser.position
        guard parser.count - start >= 4, base[start] == UInt8(ascii: "\""), base[start + 1] == letter,
              base[start + 2] != UInt8(ascii: "0") else { return nil }
        var index = start + 2
        var value: UInt64 = 0
        while index < parser.count, index - start - 2 < 19 {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            index += 1
        }
        guard index > start + 2, index < parser.count, base[index] == UInt8(ascii: "\"") else { return nil }
        parser.position = index + 1
        return value
    }

    /// Steps over `text` when its bytes come next, exactly, and says so; leaves anything else to be read. `text` must
    /// be a whole token as written (`"item"` with its quotes: a string without escapes), so what follows it is
    /// checked by whatever reads next.
    @inline(__always)
    public mutating func skip(_ text: StaticString) -> Bool {
        skipWhitespace()
        let length = text.utf8CodeUnitCount
        guard parser.count - parser.position >= length else { return false }
        let start = parser.base + parser.position
        for offset in 0..<length where start[offset] != text.utf8Start[offset] { return false }
        parser.position += length
        return true
    }

    /// Steps over `literal` when it comes next, followed by a byte that may end a value, and says so.
    @inline(__always)
    private mutating func matches(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard parser.count - parser.position > length else { return false }
        let start = parser.base + parser.position
        for offset in 0..<length where start[offset] != literal.utf8Start[offset] { return false }
        switch start[length] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
            parser.position += length
            return true
        default: return false
        }
    }

    /// The value that comes next, whatever it is, as `JSON`.
    /// - Complexity: O(its length); a container allocates as `JSONParser` does.
    public mutating func value() throws(Stop) -> JSON {
        parser.skipWhitespace()
        do { return try parser.parseValue() } catch { throw Stop() }
    }
}

/// The keys an object's reader knows, in its order: `JSONPullReader.nextMember` answers a key's index here.
public struct JSONKeys: Sendable {
    private let keys: [StaticString]
    /// Per key, `,"key":` in `wordsPerKey` little-endian words, zero past its end (`separated`), then per key
    /// `"key":` the same way.
    private let patterns: [UInt64]
    /// The number of words each key's pattern takes.
    private let wordsPerKey: Int

    /// The keys, plain ASCII without escapes.
    public init(_ keys: [StaticString]) {
        self.keys = keys
        let longest = keys.map { $0.utf8CodeUnitCount + 4 }.max() ?? 0
        wordsPerKey = (longest + 7) / 8
        var patterns = [UInt64](repeating: 0, count: 2 * wordsPerKey * keys.count)
        for (index, key) in keys.enumerated() {
            let member = [UInt8(ascii: "\"")] + Array(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
                + [UInt8(ascii: "\""), UInt8(ascii: ":")]
            for (start, bytes) in [(index, [UInt8(ascii: ",")] + member), (keys.count + index, member)] {
                for (offset, byte) in bytes.enumerated() {
                    patterns[start * wordsPerKey + offset / 8] |= UInt64(byte) << UInt64(8 * (offset % 8))
                }
            }
        }
        self.patterns = patterns
    }

    /// The key at `index`, as a string.
    public func name(_ index: Int) -> String { keys[index].description }

    /// How many bytes at `start` are the key at `index` as written without whitespace: `,"key":` when `separated`,
    /// else `"key":`; nil when they are something else, or fewer than a whole number of words is `available` to
    /// compare them.
    /// - Complexity: O(length of the key), a word at a time.
    @inline(__always)
    func matchLength(_ index: Int, at start: UnsafePointer<UInt8>, available: Int, separated: Bool) -> Int? {
        guard index >= 0, index < keys.count else { return nil }
        let skip = separated ? 0 : 1
        let length = keys[index].utf8CodeUnitCount + 4 - skip
        guard available >= wordsPerKey * 8 else { return nil }
        return patterns.withUnsafeBufferPointer { words -> Int? in
            let raw = UnsafeRawPointer(start)
            let first = ((separated ? 0 : keys.count) + index) * wordsPerKey
            var offset = 0
            var word = first
            while length - offset >= 8 {
                guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == words[word] else { return nil }
                offset += 8
                word += 1
            }
            if offset < length {
                let mask: UInt64 = (1 &<< UInt64(8 &* (length &- offset))) &- 1
                guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & mask == words[word] else { return nil }
            }
            return length
        }
    }

    /// The index of the key whose bytes are `start[0..<count]`, or nil; the key at `expected` (the one that usually
    /// comes next) is tried first.
    /// - Complexity: O(keys).
    @inline(__always)
    func index(of start: UnsafePointer<UInt8>, count: Int, expecting expected: Int) -> Int? {
        if expected < keys.count, keys[expected].utf8CodeUnitCount == count, memoryEqual(keys[expected].utf8Start, start, count) {
            return expected
        }
        for index in keys.indices where keys[index].utf8CodeUnitCount == count {
            if memoryEqual(keys[index].utf8Start, start, count) { return index }
        }
        return nil
    }

    @inline(__always)
    private func memoryEqual(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for offset in 0..<count where left[offset] != right[offset] { return false }
        return true
    }
}
