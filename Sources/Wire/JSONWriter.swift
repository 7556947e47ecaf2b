/// Typed values written straight into output bytes: no `JSON` value is built for them.

/// A value that writes its own compact JSON, byte for byte what `JSONSerializer` writes for its `json`, without
/// building that `JSON` value.
public protocol JSONWritable {
    /// Appends the value's compact JSON to `writer`.
    func write(to writer: inout JSONWriter)
}

/// Compact JSON written through a pointer into one growing buffer, by the caller, piece by piece: punctuation and
/// keys as literals known when the program is compiled (`"title":` escaped once, by whoever wrote the literal),
/// strings escaped as `JSONSerializer` escapes them, integers two digits at a time.
///
/// The caller is responsible for the document's shape: what it writes is concatenated as it is.
public struct JSONWriter: ~Copyable {
    @usableFromInline var sink: ByteSink

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 1024) {
        sink = ByteSink(capacity: capacity)
    }

    /// The bytes written so far.
    public var bytes: [UInt8] { Array(sink.bytes) }

    /// How many bytes were written.
    public var count: Int { sink.count }

    /// Appends the bytes written to `buffer`.
    /// - Complexity: O(bytes written).
    public func append(to buffer: inout [UInt8]) {
        buffer.append(contentsOf: sink.bytes)
    }

    /// Forgets what was written, keeping the capacity (up to `keepingAtMost` bytes).
    public mutating func removeAll(keepingAtMost limit: Int = 1 << 20) {
        sink.removeAll(keepingAtMost: limit)
    }

    /// Appends `text` as it is: punctuation, or a key with its quotes and colon (`,"title":`), which must be
    /// valid JSON text already escaped.
    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        sink.append(text)
    }

    /// Appends one byte as it is (`{`, `,`, `]`).
    @inlinable @inline(__always)
    public mutating func raw(_ byte: UInt8) {
        sink.append(byte)
    }

    /// Appends `string` quoted, escaping only what RFC 8259 requires (as `JSONSerializer` does).
    /// - Complexity: O(length), eight bytes per step when nothing needs escaping.
    @inlinable @inline(__always)
    public mutating func string(_ string: String) {
        JSONSerializer.writeString(string, into: &sink)
    }

    /// Appends `"` `letter` `value` `"`: a string of one ASCII letter and a decimal, written without making it.
    @inlinable
    public mutating func string(letter: UInt8, decimal value: UInt64) {
        let digits = Self.digitCount(value)
        sink.reserve(digits + 3)
        sink.put(UInt8(ascii: "\""))
        sink.put(letter)
        sink.putDecimal(value, digits: digits)
        sink.put(UInt8(ascii: "\""))
    }

    /// Appends `integer` in decimal.
    @inlinable @inline(__always)
    public mutating func integer(_ integer: Int) {
        integer64(Int64(integer))
    }

    /// Appends `integer` in decimal.
    @inlinable
    public mutating func integer64(_ integer: Int64) {
        let magnitude = integer.magnitude
        let digits = Self.digitCount(magnitude)
        let sign = integer < 0 ? 1 : 0
        sink.reserve(sign + digits)
        if sign == 1 { sink.put(UInt8(ascii: "-")) }
        sink.putDecimal(magnitude, digits: digits)
    }

    /// Appends `integer` in decimal; it must be at most `Int64.max` (as `JSON.integer` holds it).
    @inlinable
    public mutating func unsigned(_ integer: UInt64) {
        let digits = Self.digitCount(integer)
        sink.reserve(digits)
        sink.putDecimal(integer, digits: digits)
    }

    /// Appends `true` or `false`.
    @inlinable @inline(__always)
    public mutating func bool(_ flag: Bool) {
        if flag { sink.append("true") } else { sink.append("false") }
    }

    /// Appends `null`.
    @inlinable @inline(__always)
    public mutating func null() {
        sink.append("null")
    }

    /// Appends a `JSON` value, as `JSONSerializer` writes it (for the rare parts no type writes itself).
    public mutating func value(_ value: JSON) {
        JSONSerializer.write(value, into: &sink)
    }

    /// Appends a value that writes itself.
    @inlinable @inline(__always)
    public mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    /// Appends `[`, the elements separated by commas, `]`.
    @inlinable @inline(__always)
    public mutating func array<Element: JSONWritable>(_ elements: [Element]) {
        sink.append(UInt8(ascii: "["))
        for index in elements.indices {
            if index > 0 { sink.append(UInt8(ascii: ",")) }
            elements[index].write(to: &self)
        }
        sink.append(UInt8(ascii: "]"))
    }

    /// Appends `[`, the strings separated by commas, `]`.
    public mutating func array(_ strings: [String]) {
        sink.append(UInt8(ascii: "["))
        for index in strings.indices {
            if index > 0 { sink.append(UInt8(ascii: ",")) }
            JSONSerializer.writeString(strings[index], into: &sink)
        }
        sink.append(UInt8(ascii: "]"))
    }

    /// How many decimal digits `value` has.
    @inlinable @inline(__always)
    static func digitCount(_ value: UInt64) -> Int {
        var digits = 1
        var power: UInt64 = 10
        while value >= power {
            digits += 1
            if digits == 20 { break }
            power &*= 10
        }
        return digits
    }
}

extension JSONSerializer {
    /// Appends a JSON-RPC notification whose params write themselves: the same bytes as writing
    /// `Message.notification(method: method, params: params.json)`, no `JSON` value built for the params.
    /// - Complexity: O(length of the output).
    public static func writeNotification(method: String, params: some JSONWritable, into writer: inout JSONWriter) {
        writer.raw(#"{"jsonrpc":"2.0","method":"#)
        writer.string(method)
        writer.raw(#","params":"#)
        params.write(to: &writer)
        writer.raw(UInt8(ascii: "}"))
    }

    /// Appends a JSON-RPC response whose result writes itself: the same bytes as writing
    /// `Message.response(id: id, result: result.json)`.
    /// - Complexity: O(length of the output).
    public static func writeResponse(id: RequestID, result: some JSONWritable, into writer: inout JSONWriter) {
        writer.raw(#"{"jsonrpc":"2.0","id":"#)
        switch id {
        case .integer(let integer): writer.integer64(integer)
        case .string(let string): writer.string(string)
        }
        writer.raw(#","result":"#)
        result.write(to: &writer)
        writer.raw(UInt8(ascii: "}"))
    }
}
