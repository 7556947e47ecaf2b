/// Writes `JSON` values as compact RFC 8259 text: no whitespace, members in order, UTF-8 unescaped.

/// Writes JSON values as compact UTF-8 bytes that `JSONParser` reads back to an equal value.
///
/// Strings escape only what RFC 8259 requires: `"`, `\` and the control characters below
/// U+0020 (`\b \f \n \r \t` in their short forms, the rest as `\u00XX`); `/` and non-ASCII
/// characters are written as they are. Integers are written in decimal, doubles in Swift's
/// shortest round-trip form (`1.0`, `0.1`, `1e-05`, `1e+300`).
public enum JSONSerializer {
    /// Appends the compact encoding of `value` to `buffer`, leaving what is already there.
    ///
    /// A non-finite `.double` (infinity or NaN) has no JSON form and is written as `null`;
    /// `JSONParser` never produces one, so only a value built in code can hold it.
    /// Recurses once per level of nesting.
    /// - Complexity: O(length of the output).
    public static func write(_ value: JSON, into buffer: inout [UInt8]) {
        switch value {
        case .null:
            append("null", to: &buffer)
        case .bool(let flag):
            append(flag ? "true" : "false", to: &buffer)
        case .integer(let integer):
            writeInteger(integer, into: &buffer)
        case .double(let double):
            if double.isFinite {
                buffer.append(contentsOf: double.description.utf8)
            } else {
                append("null", to: &buffer)
            }
        case .string(let string):
            writeString(string, into: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                write(element, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            buffer.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                write(member.value, into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes the decimal digits, most significant first, by writing them backwards and reversing.
    private static func writeInteger(_ integer: Int64, into buffer: inout [UInt8]) {
        if integer < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        let start = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude != 0
        buffer[start...].reverse()
    }

    /// Writes a quoted string, copying runs that need no escape in one go.
    private static func writeString(_ string: String, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                writeEscape(byte, into: &buffer)
                runStart = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ byte: UInt8, into buffer: inout [UInt8]) {
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
            append("\\u00", to: &buffer)
            buffer.append(digits.utf8Start[Int(byte >> 4)])
            buffer.append(digits.utf8Start[Int(byte & 0x0F)])
            return
        }
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(short)
    }
}

extension JSON {
    /// The compact encoding (see `JSONSerializer`) as UTF-8 bytes.
    /// - Complexity: O(length of the output).
    public var bytes: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        JSONSerializer.write(self, into: &buffer)
        return buffer
    }

    /// The compact encoding (see `JSONSerializer`) as a string.
    /// - Complexity: O(length of the output).
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
