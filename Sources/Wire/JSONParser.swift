/// The strict RFC 8259 parser: bytes in, one `JSON` value out, or a `JSONError` saying where and why.

/// Why some bytes are not a JSON document, and where.
///
/// `message` is a whole sentence for a person, offset included, fit to go into a JSON-RPC error
/// message as it is: "invalid JSON at byte 17: expected ':' after an object key, found '}'".
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The zero-based index of the first byte that is wrong, or the input's length when the
    /// input ends too early.
    public let offset: Int
    /// The explanation, offset included.
    public let message: String

    /// The explanation, offset included.
    public var description: String { message }

    init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

/// A strict RFC 8259 JSON parser over raw bytes.
///
/// It accepts exactly one value with only whitespace (space, tab, LF, CR) around it, and rejects:
/// invalid UTF-8 anywhere (overlong forms, encoded surrogates, scalars above U+10FFFF, truncated
/// sequences); unescaped control characters in strings; lone or mismatched surrogate escapes;
/// numbers outside the RFC grammar or beyond `Double`'s range; nesting deeper than `maxDepth`.
/// No input makes it trap, hang or recurse deeper than `maxDepth`.
///
/// Numbers keep integer exactness: a literal with no fraction and no exponent that fits `Int64`
/// is `.integer` (so `-0` is `.integer(0)`); every other number is the correctly rounded `.double`.
///
/// Fast paths: a string of plain ASCII is found eight bytes at a time and made straight from the input;
/// the members and elements of every container are pushed on one shared stack (`ValueStack`) and moved into
/// an array of exactly their count when it closes, so a container costs one allocation.
public struct JSONParser: ~Copyable {
    let base: UnsafePointer<UInt8>
    let count: Int
    private let maxDepth: Int
    var position = 0
    var depth = 0
    /// Where strings with escapes are assembled; reused across strings.
    private var scratch: [UInt8] = []
    /// The members of the objects being parsed, innermost last; moved into each object as it closes.
    private var members = ValueStack<(key: String, value: JSON)>()
    /// The elements of the arrays being parsed, innermost last; moved into each array as it closes.
    private var elements = ValueStack<JSON>()

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
    }

    /// Parses one JSON document.
    ///
    /// - Parameters:
    ///   - bytes: The whole document, UTF-8. Error offsets count from its first byte.
    ///   - maxDepth: How many arrays and objects may nest; one more is an error, found before
    ///     recursing. Each level takes about 200 bytes of stack optimized and 2 KB in a debug
    ///     build, so keep this in the hundreds.
    /// - Throws: `JSONError` for anything that is not one valid JSON value.
    /// - Complexity: O(n) time in the input's length; stack O(`maxDepth`).
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256) throws(JSONError) -> JSON {
        guard let address = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONError(offset: 0, message: "invalid JSON at byte 0: expected a JSON value, found end of input")
        }
        var parser = JSONParser(base: address.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth)
        parser.skipWhitespace()
        if parser.hasByteOrderMark() {
            throw parser.invalid("a byte order mark (U+FEFF) is not allowed", at: parser.position)
        }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == parser.count else {
            throw parser.invalid("unexpected \(parser.describe(at: parser.position)) after the JSON value", at: parser.position)
        }
        return value
    }

    /// Parses one JSON document held in an array of bytes.
    /// - Complexity: O(n) in the input's length.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 256) throws(JSONError) -> JSON {
        try bytes.withUnsafeBytes { buffer in Result { () throws(JSONError) in try parse(buffer, maxDepth: maxDepth) } }.get()
    }

    /// Parses one JSON document held in a slice of bytes; error offsets count from the slice's
    /// first byte, not from its `startIndex`.
    /// - Complexity: O(n) in the input's length.
    public static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = 256) throws(JSONError) -> JSON {
        try bytes.withUnsafeBytes { buffer in Result { () throws(JSONError) in try parse(buffer, maxDepth: maxDepth) } }.get()
    }

    /// Parses one JSON document held in a string; error offsets count its UTF-8 bytes.
    /// - Complexity: O(n) in the input's length.
    public static func parse(_ text: String, maxDepth: Int = 256) throws(JSONError) -> JSON {
        var text = text
        return try text.withUTF8 { utf8 in
            Result { () throws(JSONError) in try parse(UnsafeRawBufferPointer(utf8), maxDepth: maxDepth) }
        }.get()
    }

    // MARK: Values

    /// Parses the value starting at `position` (whitespace already skipped).
    ///
    /// Containers recurse through here, once per level of nesting, so the scalar cases live in
    /// `parseScalar` to keep this frame small in debug builds.
    mutating func parseValue() throws(JSONError) -> JSON {
        switch byte(at: position) {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        default: try parseScalar()
        }
    }

    private mutating func parseScalar() throws(JSONError) -> JSON {
        switch byte(at: position) {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected("a JSON value", at: position)
        }
    }

    private mutating func parseLiteral(_ literal: StaticString, _ value: JSON) throws(JSONError) -> JSON {
        let length = literal.utf8CodeUnitCount
        guard count - position >= length else { throw invalid("expected '\(literal)'", at: position) }
        for offset in 0..<length where base[position + offset] != literal.utf8Start[offset] {
            throw invalid("expected '\(literal)'", at: position)
        }
        position += length
        return value
    }

    private mutating func parseArray() throws(JSONError) -> JSON {
        try enterContainer()
        position += 1
        skipWhitespace()
        let first = elements.count
        if byte(at: position) != UInt8(ascii: "]") {
            while true {
                elements.push(try parseValue())
                skipWhitespace()
                guard byte(at: position) == UInt8(ascii: ",") else { break }
                position += 1
                skipWhitespace()
            }
            guard byte(at: position) == UInt8(ascii: "]") else {
                throw unexpected("',' or ']' after an array element", at: position)
            }
        }
        position += 1
        depth -= 1
        return .array(elements.popArray(from: first))
    }

    private mutating func parseObject() throws(JSONError) -> JSON {
        try enterContainer()
        position += 1
        skipWhitespace()
        let first = members.count
        if byte(at: position) != UInt8(ascii: "}") {
            while true {
                guard byte(at: position) == UInt8(ascii: "\"") else {
                    throw unexpected(members.count == first ? "a string key or '}'" : "a string key after ','", at: position)
                }
                let key = try parseString()
                skipWhitespace()
                guard byte(at: position) == UInt8(ascii: ":") else {
                    throw unexpected("':' after an object key", at: position)
                }
                position += 1
                skipWhitespace()
                members.push((key: key, value: try parseValue()))
                skipWhitespace()
                guard byte(at: position) == UInt8(ascii: ",") else { break }
                position += 1
                skipWhitespace()
            }
            guard byte(at: position) == UInt8(ascii: "}") else {
                throw unexpected("',' or '}' after an object member", at: position)
            }
        }
        position += 1
        depth -= 1
        return .object(JSONObject(members.popArray(from: first)))
    }

    /// Counts one more level of nesting, refusing it before any recursion happens.
    mutating func enterContainer() throws(JSONError) {
        guard depth < maxDepth else {
            throw JSONError(offset: position, message: "nesting deeper than \(maxDepth) at byte \(position)")
        }
        depth += 1
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `position`. A string without escapes is made
    /// straight from the input bytes (plain ASCII is found eight bytes at a time); one with escapes is
    /// assembled in `scratch`, copying the runs between escapes whole.
    /// - Complexity: O(length of the string).
    mutating func parseString() throws(JSONError) -> String {
        let quote = position
        var runStart = quote + 1
        var index = ByteScan.endOfPlainASCII(base, from: runStart, count: count)
        if index < count && base[index] == UInt8(ascii: "\"") {
            position = index + 1
            return String(decoding: UnsafeBufferPointer(start: base + runStart, count: index - runStart), as: UTF8.self)
        }
        var hasEscapes = false
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                let run = UnsafeBufferPointer(start: base + runStart, count: index - runStart)
                if byte == UInt8(ascii: "\"") {
                    position = index + 1
                    guard hasEscapes else { return String(decoding: run, as: UTF8.self) }
                    scratch.append(contentsOf: run)
                    return String(decoding: scratch, as: UTF8.self)
                }
                if !hasEscapes {
                    scratch.removeAll(keepingCapacity: true)
                    hasEscapes = true
                }
                scratch.append(contentsOf: run)
                guard index + 1 < count else { break }
                index = try appendEscape(at: index)
                runStart = index
            } else if byte < 0x20 {
                throw controlCharacter(byte, at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                index = try endOfMultibyteCharacter(at: index)
            }
        }
        throw unterminatedString(quote: quote)
    }

    /// Appends the character of the escape whose backslash is at `backslash` to `scratch`, and
    /// returns the index after the escape (after both halves of a surrogate pair).
    private mutating func appendEscape(at backslash: Int) throws(JSONError) -> Int {
        let letter = byte(at: backslash + 1)
        let simple: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = letter
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): return try appendUnicodeEscape(at: backslash)
        case 0x21..<0x7F:
            throw invalid("invalid escape '\\\(Character(Unicode.Scalar(letter)))' in a string", at: backslash)
        default:
            throw invalid("invalid escape: '\\' followed by \(describe(at: backslash + 1))", at: backslash)
        }
        scratch.append(simple)
        return backslash + 2
    }

    private mutating func appendUnicodeEscape(at backslash: Int) throws(JSONError) -> Int {
        guard let unit = hexQuad(at: backslash + 2) else {
            throw invalid("expected 4 hex digits after '\\u'", at: backslash)
        }
        var scalar = UInt32(unit)
        var next = backslash + 6
        if unit & 0xFC00 == 0xD800 {
            guard byte(at: next) == UInt8(ascii: "\\"), byte(at: next + 1) == UInt8(ascii: "u"),
                let low = hexQuad(at: next + 2), low & 0xFC00 == 0xDC00
            else { throw loneSurrogate(unit, at: backslash) }
            scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            next += 6
        } else if unit & 0xFC00 == 0xDC00 {
            throw loneSurrogate(unit, at: backslash)
        }
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(scalar >> 6))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(scalar >> 12))
            scratch.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(scalar >> 18))
            scratch.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            scratch.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        }
        return next
    }

    /// The value of the four hex digits at `index`, or `nil` if they are not all there.
    private func hexQuad(at index: Int) -> UInt16? {
        var value: UInt16 = 0
        for offset in 0..<4 {
            let digit = byte(at: index + offset)
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt16(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt16(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt16(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return value
    }

    /// Checks the UTF-8 sequence whose lead byte (0x80 or above) is at `index` against the
    /// well-formed table of Unicode §3.9, and returns the index after it.
    private func endOfMultibyteCharacter(at index: Int) throws(JSONError) -> Int {
        let second = byte(at: index + 1)
        let length: Int
        switch base[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 0xA0...0xBF ~= second ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 0x80...0x9F ~= second ? 3 : 0
        case 0xF0: length = 0x90...0xBF ~= second ? 4 : 0
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 0x80...0x8F ~= second ? 4 : 0
        default: length = 0
        }
        guard length > 0, index + length <= count else { throw invalidUTF8(at: index) }
        for continuation in index + 1..<index + length where base[continuation] & 0xC0 != 0x80 {
            throw invalidUTF8(at: index)
        }
        return index + length
    }

    // MARK: Numbers

    /// Parses a number per the RFC grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONError) -> JSON {
        let start = position
        var index = position
        let negative = base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var magnitude: UInt64 = 0
        var overflowed = false
        if byte(at: index) == UInt8(ascii: "0") {
            index += 1
            if isDigit(byte(at: index)) { throw invalid("a number may not have leading zeros", at: start) }
        } else if isDigit(byte(at: index)) {
            while isDigit(byte(at: index)) {
                let (product, productOverflowed) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, sumOverflowed) = product.addingReportingOverflow(UInt64(base[index] - UInt8(ascii: "0")))
                magnitude = sum
                overflowed = overflowed || productOverflowed || sumOverflowed
                index += 1
            }
        } else {
            throw unexpected("a digit after '-'", at: index)
        }
        var isInteger = true
        if byte(at: index) == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(byte(at: index)) else { throw unexpected("a digit after '.'", at: index) }
            while isDigit(byte(at: index)) { index += 1 }
        }
        if byte(at: index) | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if byte(at: index) == UInt8(ascii: "+") || byte(at: index) == UInt8(ascii: "-") { index += 1 }
            guard isDigit(byte(at: index)) else { throw unexpected("a digit in the exponent", at: index) }
            while isDigit(byte(at: index)) { index += 1 }
        }
        position = index
        if isInteger && !overflowed {
            if !negative && magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
            if negative && magnitude <= Int64.min.magnitude { return .integer(Int64(bitPattern: 0 &- magnitude)) }
        }
        let lexeme = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        guard let value = Double(lexeme), value.isFinite else {
            let shown = lexeme.utf8.count <= 40 ? lexeme : String(lexeme.prefix(37)) + "..."
            throw invalid("number \(shown) is too large for a 64-bit float", at: start)
        }
        return .double(value)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Bytes

    /// The byte at `index`, or 0 past the end (0 is never valid where this is asked).
    func byte(at index: Int) -> UInt8 {
        index < count ? base[index] : 0
    }

    mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func hasByteOrderMark() -> Bool {
        count - position >= 3 && base[position] == 0xEF && base[position + 1] == 0xBB && base[position + 2] == 0xBF
    }

    // MARK: Errors

    /// The byte at `index` for a message: `'x'` when printable ASCII (`"'"` for the
    /// apostrophe), else `byte 0xNN`.
    func describe(at index: Int) -> String {
        guard index < count else { return "end of input" }
        let byte = base[index]
        if byte == UInt8(ascii: "'") { return #""'""# }
        if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte " + hex(byte)
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }

    func invalid(_ problem: String, at index: Int) -> JSONError {
        JSONError(offset: index, message: "invalid JSON at byte \(index): \(problem)")
    }

    func unexpected(_ expected: String, at index: Int) -> JSONError {
        invalid("expected \(expected), found \(describe(at: index))", at: index)
    }

    private func controlCharacter(_ byte: UInt8, at index: Int) -> JSONError {
        invalid("control character \(hex(byte)) in a string must be escaped", at: index)
    }

    private func unterminatedString(quote: Int) -> JSONError {
        invalid("unexpected end of input in the string started at byte \(quote)", at: count)
    }

    private func invalidUTF8(at index: Int) -> JSONError {
        JSONError(offset: index, message: "invalid UTF-8 at byte \(index)")
    }

    private func loneSurrogate(_ unit: UInt16, at index: Int) -> JSONError {
        let digits = String(unit, radix: 16, uppercase: true)
        return JSONError(offset: index, message: "lone surrogate \\u\(digits) at byte \(index)")
    }
}
