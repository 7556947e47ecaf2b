// ByteReader: reads the codec's primitives back from untrusted bytes, refusing anything malformed with a CodecError.

/// Why bytes could not be decoded, and where.
public struct CodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offset, from the start of the bytes given to the decoder, at which the problem was found.
    public var offset: Int
    /// What is wrong, completing "at byte N: ...".
    public var problem: String

    /// An error at `offset`.
    public init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    /// `at byte N: problem`.
    public var description: String { "at byte \(offset): \(problem)" }
}

/// Reads the encodings `ByteWriter` writes (see there), from the front of a buffer.
///
/// Every read checks the bytes left first and throws `CodecError` on truncation, a bad tag or bool,
/// an overlong varint, invalid UTF-8, or a count larger than the bytes left could hold: it never
/// traps on any input, and never allocates more than the bytes left justify.
/// The buffer must stay valid while the reader is used.
public struct ByteReader {
    /// The bytes read from.
    public let buffer: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    /// A reader of `buffer`, starting at `offset`.
    public init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = min(max(offset, 0), buffer.count)
    }

    /// Runs `body` with a reader of `bytes` (offsets count from the slice's start).
    public static func reading<Bytes: Collection, Result>(
        _ bytes: Bytes, _ body: (inout ByteReader) throws(CodecError) -> Result
    ) throws(CodecError) -> Result where Bytes.Element == UInt8 {
        let outcome: Swift.Result<Result, CodecError>? = bytes.withContiguousStorageIfAvailable { storage in
            var reader = ByteReader(UnsafeRawBufferPointer(storage))
            return Swift.Result { () throws(CodecError) in try body(&reader) }
        }
        if let outcome { return try outcome.get() }
        return try Array(bytes).withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            return Swift.Result { () throws(CodecError) in try body(&reader) }
        }.get()
    }

    /// The number of bytes not read yet.
    public var remaining: Int { buffer.count - offset }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == buffer.count }

    /// An error at the current offset.
    public func failure(_ problem: String) -> CodecError { CodecError(offset: offset, problem: problem) }

    /// Refuses bytes left over after the last value.
    public mutating func skip(_ count: Int) throws(CodecError) {
        guard count >= 0, count <= remaining else {
            throw CodecError(offset: offset, problem: "\(count) bytes are expected, \(remaining) are left")
        }
        offset += count
    }

    /// Refuses bytes left after the value.
    public func expectEnd() throws(CodecError) {
        guard isAtEnd else { throw failure("\(remaining) bytes follow the end of the value") }
    }

    /// One byte.
    @inline(__always)
    public mutating func read() throws(CodecError) -> UInt8 {
        guard offset < buffer.count else { throw failure("the bytes end in the middle of a value") }
        let byte = buffer[offset]
        offset += 1
        return byte
    }

    /// A little-endian integer of `Value`'s width.
    public mutating func readFixed<Value: FixedWidthInteger>(_: Value.Type) throws(CodecError) -> Value {
        let size = MemoryLayout<Value>.size
        guard remaining >= size else { throw failure("the bytes end in the middle of a \(size)-byte integer") }
        let value = buffer.loadUnaligned(fromByteOffset: offset, as: Value.self)
        offset += size
        return Value(littleEndian: value)
    }

    /// An unsigned LEB128 varint of at most 10 bytes that fits 64 bits.
    @inline(__always)
    public mutating func readVarint() throws(CodecError) -> UInt64 {
        let byte = try read()
        if byte < 0x80 { return UInt64(byte) }
        return try readVarintTail(UInt64(byte & 0x7F))
    }

    private mutating func readVarintTail(_ low: UInt64) throws(CodecError) -> UInt64 {
        var value = low
        var shift: UInt64 = 7
        while true {
            let byte = try read()
            if shift == 63, byte > 1 { throw failure("a varint overflows 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A zigzag-encoded signed varint.
    @inline(__always)
    public mutating func readSignedVarint() throws(CodecError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A count of things that follow, each taking at least `minimumSize` bytes: refused when the bytes
    /// left cannot hold that many, so that a damaged count never makes a large allocation.
    @inline(__always)
    public mutating func readCount(minimumSize: Int = 1) throws(CodecError) -> Int {
        let start = offset
        let count = try readVarint()
        guard count <= UInt64(remaining / max(minimumSize, 1)) else {
            throw CodecError(offset: start, problem: "a count of \(count) is larger than the \(remaining) bytes left can hold")
        }
        return Int(count)
    }

    /// 0 (false) or 1 (true).
    @inline(__always)
    public mutating func readBool() throws(CodecError) -> Bool {
        switch try read() {
        case 0: return false
        case 1: return true
        case let byte: throw CodecError(offset: offset - 1, problem: "a bool is \(byte), not 0 or 1")
        }
    }

    /// A length and that many bytes.
    public mutating func readBytes() throws(CodecError) -> [UInt8] {
        let count = try readCount()
        let bytes = Array(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]))
        offset += count
        return bytes
    }

    /// A length and that many bytes, given to `body` where they lie (no array made).
    public mutating func readBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) throws(CodecError) -> Result {
        let count = try readCount()
        let result = body(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]))
        offset += count
        return result
    }

    /// A length and that many bytes of valid UTF-8.
    /// - Complexity: O(length): one validation and one copy.
    public mutating func readString() throws(CodecError) -> String {
        let count = try readCount()
        guard count > 0 else { return "" }
        let start = buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self)
        guard let string = String(validating: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) else {
            throw failure("a string is not valid UTF-8")
        }
        offset += count
        return string
    }

    /// A presence byte, then (when 1) the value `readValue` reads.
    @inline(__always)
    public mutating func readOptional<Value>(
        _ readValue: (inout ByteReader) throws(CodecError) -> Value
    ) throws(CodecError) -> Value? {
        switch try read() {
        case 0: return nil
        case 1: return try readValue(&self)
        case let byte: throw CodecError(offset: offset - 1, problem: "a presence byte is \(byte), not 0 or 1")
        }
    }
}
