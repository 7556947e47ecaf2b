// ByteWriter: appends the codec's primitives (fixed and variable-length integers, strings, optionals) to bytes.

/// Appends values in the store's primitive encodings; `ByteReader` reads them back.
///
/// ```
/// fixed integer   little-endian, its own width (u8, u32, u64)
/// varint          unsigned LEB128: 7 bits a byte, low group first, high bit set on all but the last (1-10 bytes)
/// signed varint   zigzag (0, -1, 1, -2... as 0, 1, 2, 3...), then varint
/// bool            one byte, 0 or 1
/// bytes, string   varint length, then the bytes (a string's are UTF-8)
/// optional        one presence byte, 0 (absent) or 1 followed by the value
/// ```
public struct ByteWriter {
    /// What has been written so far.
    public var bytes: [UInt8]

    /// A writer appending to `bytes`.
    public init(bytes: [UInt8] = []) { self.bytes = bytes }

    /// Appends one byte.
    @inline(__always)
    public mutating func write(_ byte: UInt8) { bytes.append(byte) }

    /// Appends `value` little-endian, in its own width.
    public mutating func writeFixed<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as an unsigned LEB128 varint.
    /// - Complexity: O(1), at most 10 bytes.
    @inline(__always)
    public mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends `value` zigzag-encoded as a varint.
    @inline(__always)
    public mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends a count (of bytes or of elements that follow) as a varint.
    @inline(__always)
    public mutating func writeCount(_ count: Int) { writeVarint(UInt64(count)) }

    /// Appends 0 or 1.
    @inline(__always)
    public mutating func writeBool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// Appends the length, then the bytes.
    public mutating func writeBytes(_ value: [UInt8]) {
        writeCount(value.count)
        bytes.append(contentsOf: value)
    }

    /// Appends the UTF-8 length, then the UTF-8 bytes.
    /// - Complexity: O(length); one copy for a native string.
    public mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { writeUTF8($0) }
    }

    /// Appends a string's UTF-8 bytes as `writeString` does: their count, then the bytes.
    public mutating func writeUTF8(_ utf8: UnsafeBufferPointer<UInt8>) {
        writeCount(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    /// Appends a presence byte, then the value (when present) with `writeValue`.
    @inline(__always)
    public mutating func writeOptional<Value>(_ value: Value?, _ writeValue: (inout ByteWriter, Value) -> Void) {
        if let value {
            bytes.append(1)
            writeValue(&self, value)
        } else {
            bytes.append(0)
        }
    }
}
