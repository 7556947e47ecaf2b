/// Writes `JSON` values as compact RFC 8259 text: no whitespace, members in order, UTF-8 unescaped.

/// Writes JSON values as compact UTF-8 bytes that `JSONParser` reads back to an equal value.
///
/// Strings escape only what RFC 8259 requires: `"`, `\` and the control characters below
/// U+0020 (`\b \f \n \r \t` in their short forms, the rest as `\u00XX`); `/` and non-ASCII
/// characters are written as they are. Integers are written in decimal, doubles in Swift's
/// shortest round-trip form (`1.0`, `0.1`, `1e-05`, `1e+300`).
///
/// The text is written through a pointer into one growing buffer (`ByteSink`): a string that needs no
/// escape is found so eight bytes at a time and copied whole, an integer's digits are written two at a time.
public enum JSONSerializer {
    /// Appends the compact encoding of `value` to `buffer`, leaving what is already there.
    ///
    /// A non-finite `.double` (infinity or NaN) has no JSON form and is written as `null`;
    /// `JSONParser` never produces one, so only a value built in code can hold it.
    /// Recurses once per level of nesting.
    /// - Complexity: O(length of the output).
    public static func write(_ value: JSON, into buffer: inout [UInt8]) {
        var sink = ByteSink(capacity: max(256, buffer.capacity - buffer.count))
        write(value, into: &sink)
        buffer.append(contentsOf: sink.bytes)
    }

    /// Appends the compact encoding of `message` to `buffer`: the same bytes as writing `message.json`,
    /// without building the envelope as a `JSON` value.
    /// - Complexity: O(length of the output).
    public static func write(_ message: Message, into buffer: inout [UInt8]) {
        var sink = ByteSink(capacity: max(256, buffer.capacity - buffer.count))
        write(message, into: &sink)
        buffer.append(contentsOf: sink.bytes)
    }

    static func write(_ message: Message, into sink: inout ByteSink) {
        sink.append(#"{"jsonrpc":"2.0""#)
        switch message {
        case .request(let id, let method, let params):
            writeID(id, into: &sink)
            sink.append(#","method":"#)
            writeString(method, into: &sink)
            if let params {
                sink.append(#","params":"#)
                write(params, into: &sink)
            }
        case .notification(let method, let params):
            sink.append(#","method":"#)
            writeString(method, into: &sink)
            if let params {
                sink.append(#","params":"#)
                write(params, into: &sink)
            }
        case .response(let id, let result):
            writeID(id, into: &sink)
            sink.append(#","result":"#)
            write(result, into: &sink)
        case .error(let id, let error):
            if let id {
                writeID(id, into: &sink)
            } else {
                sink.append(#","id":null"#)
            }
            sink.append(#","error":{"code":"#)
            writeInteger(Int64(error.code.rawValue), into: &sink)
            sink.append(#","message":"#)
            writeString(error.message, into: &sink)
            if let data = error.data {
                sink.append(#","data":"#)
                write(data, into: &sink)
            }
            sink.append(UInt8(ascii: "}"))
        }
        sink.append(UInt8(ascii: "}"))
    }

    private static func writeID(_ id: RequestID, into sink: inout ByteSink) {
        sink.append(#","id":"#)
        switch id {
        case .integer(let integer): writeInteger(integer, into: &sink)
        case .string(let string): writeString(string, into: &sink)
        }
    }

    static func write(_ value: JSON, into sink: inout ByteSink) {
        switch value {
        case .null:
            sink.append("null")
        case .bool(let flag):
            if flag { sink.append("true") } else { sink.append("false") }
        case .integer(let integer):
            writeInteger(integer, into: &sink)
        case .double(let double):
            if double.isFinite {
                var text = double.description
                text.withUTF8 { sink.append($0) }
            } else {
                sink.append("null")
            }
        case .string(let string):
            writeString(string, into: &sink)
        case .array(let elements):
            sink.append(UInt8(ascii: "["))
            // Indexing, not iterating: each element is read in place, not copied (a copy retains its payload).
            for index in elements.indices {
                if index > 0 { sink.append(UInt8(ascii: ",")) }
                write(elements[index], into: &sink)
            }
            sink.append(UInt8(ascii: "]"))
        case .object(let object):
            sink.append(UInt8(ascii: "{"))
            let members = object.members
            for index in members.indices {
                if index > 0 { sink.append(UInt8(ascii: ",")) }
                writeString(members[index].key, into: &sink)
                sink.append(UInt8(ascii: ":"))
                write(members[index].value, into: &sink)
            }
            sink.append(UInt8(ascii: "}"))
        }
    }

    /// Writes the decimal digits, counted first, then stored from the last two at a time.
    private static func writeInteger(_ integer: Int64, into sink: inout ByteSink) {
        let magnitude = integer.magnitude
        var digits = 1
        var power: UInt64 = 10
        while digits < 19 && magnitude >= power {
            digits += 1
            power &*= 10
        }
        let sign = integer < 0 ? 1 : 0
        sink.reserve(sign + digits)
        if sign == 1 { sink.put(UInt8(ascii: "-")) }
        sink.putDecimal(magnitude, digits: digits)
    }

    /// Writes a quoted string: found to need no escape eight bytes at a time and copied whole, or copied in
    /// runs between the bytes that need one.
    @usableFromInline
    static func writeString(_ string: String, into sink: inout ByteSink) {
        // Native strings (all of them on Linux) lend their bytes in place; anything else is copied first.
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeQuoted($0, into: &sink) }
        if written == nil { Array(string.utf8).withUnsafeBufferPointer { writeQuoted($0, into: &sink) } }
    }

    private static func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>, into sink: inout ByteSink) {
        guard let start = utf8.baseAddress else {
            sink.append(#""""#)
            return
        }
        let count = utf8.count
        sink.reserve(count + 2)
        sink.put(UInt8(ascii: "\""))
        if ByteScan.needsNoEscape(start, count: count) {
            sink.put(start, count: count)
        } else {
            var runStart = 0
            var index = ByteScan.firstByteToEscape(start, count: count)
            while index < count {
                sink.append(UnsafeBufferPointer(start: start + runStart, count: index - runStart))
                writeEscape(start[index], into: &sink)
                runStart = index + 1
                index = runStart + ByteScan.firstByteToEscape(start + runStart, count: count - runStart)
            }
            sink.append(UnsafeBufferPointer(start: start + runStart, count: count - runStart))
            sink.reserve(1)
        }
        sink.put(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ byte: UInt8, into sink: inout ByteSink) {
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        default:
            let digits: StaticString = "0123456789abcdef"
            sink.append("\\u00")
            sink.reserve(2)
            sink.put(digits.utf8Start[Int(byte >> 4)])
            sink.put(digits.utf8Start[Int(byte & 0x0F)])
            return
        }
        sink.reserve(2)
        sink.put(UInt8(ascii: "\\"))
        sink.put(short)
    }
}

extension JSON {
    /// The compact encoding (see `JSONSerializer`) as UTF-8 bytes.
    /// - Complexity: O(length of the output).
    public var bytes: [UInt8] {
        var buffer: [UInt8] = []
        JSONSerializer.write(self, into: &buffer)
        return buffer
    }

    /// The compact encoding (see `JSONSerializer`) as a string.
    /// - Complexity: O(length of the output).
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
