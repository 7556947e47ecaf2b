// TitleText: an item's title and the key a title sort compares, in one immutable heap block.

/// A title's UTF-8 bytes, and the folded key a title sort and a text filter compare (`CollationKey`'s folding),
/// in one allocation.
///
/// The folded key is not stored when it is the title's ASCII lowercasing, which is the case for every title
/// that is all ASCII: then it is read from the title's own bytes, lowercased byte by byte as they are compared.
/// Otherwise the folded bytes follow the title's. Folding never leaves an ASCII capital (`CollationKey`), so
/// lowercasing the stored folded bytes changes nothing, and one rule reads both: the folded key is the
/// ASCII lowercasing of `foldSource`.
///
/// Stored this way an item keeps one block for its title where a `String` and a `CollationKey` took two, and
/// its field takes 8 bytes rather than 24; an index key of a title sort holds the same block.
///
/// Immutable once made (the block's header and bytes are written only by `make`), so sharing it across threads
/// is safe: hence `@unchecked Sendable` (the block, a `ManagedBuffer`, cannot say so itself).
public struct TitleText: @unchecked Sendable {
    /// The block: the lengths, then the bytes.
    private let block: Block

    /// The lengths: the title's bytes, then the folded bytes after them (`-1`: none stored, the fold is
    /// the title's ASCII lowercasing).
    struct Header {
        let count: Int32
        let foldedCount: Int32
    }

    /// One title's block.
    final class Block: ManagedBuffer<Header, UInt8> {}

    /// A title's text, folded once.
    /// - Complexity: O(length of `text`).
    public static func make(_ text: String) -> TitleText {
        var contiguous = text
        return contiguous.withUTF8 { make(validUTF8: $0, folding: $0.allSatisfy { $0 < 0x80 } ? nil : text) }
    }

    /// The title whose UTF-8 bytes are `utf8` (read from storage, for instance), without making a `String` first
    /// when they are all ASCII; nil when they are not valid UTF-8.
    /// - Complexity: O(length).
    public static func make(utf8: UnsafeBufferPointer<UInt8>) -> TitleText? {
        if utf8.allSatisfy({ $0 < 0x80 }) { return make(validUTF8: utf8, folding: nil) }
        return String(validating: utf8, as: UTF8.self).map { make(validUTF8: utf8, folding: $0) }
    }

    /// The most bytes a title's block holds (its lengths are 32-bit); a valid title is far shorter
    /// (`Limits.titleCharacters`).
    public static let maximumBytes = Int(Int32.max) / 2

    /// A block of `utf8`, valid UTF-8, with the fold of `text` (the same title as a string) stored after it; nil
    /// `text` for an all-ASCII title, whose fold is not stored. Precondition: at most `maximumBytes`.
    private static func make(validUTF8 utf8: UnsafeBufferPointer<UInt8>, folding text: String?) -> TitleText {
        precondition(utf8.count <= maximumBytes, "TitleText: a title of \(utf8.count) bytes")
        let folded = text.map { CollationKey(folding: $0).bytes } ?? []
        let block = unsafeDowncast(Block.create(minimumCapacity: utf8.count + folded.count) { _ in
            Header(count: Int32(utf8.count), foldedCount: text == nil ? -1 : Int32(folded.count))
        }, to: Block.self)
        block.withUnsafeMutablePointerToElements { bytes in
            if let base = utf8.baseAddress { bytes.initialize(from: base, count: utf8.count) }
            folded.withUnsafeBufferPointer { folded in
                if let base = folded.baseAddress { (bytes + utf8.count).initialize(from: base, count: folded.count) }
            }
        }
        return TitleText(block: block)
    }

    /// The title.
    /// - Complexity: O(length); allocates when longer than 15 bytes.
    public var string: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the title's UTF-8 bytes.
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try block.withUnsafeMutablePointers { header, bytes in
            try body(UnsafeBufferPointer(start: bytes, count: Int(header.pointee.count)))
        }
    }

    /// Calls `body` with the bytes whose ASCII lowercasing is the folded key: the title's own when its fold
    /// is stored nowhere else, else the folded bytes.
    @inline(__always)
    func withFoldSource<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try block.withUnsafeMutablePointers { header, bytes in
            let count = Int(header.pointee.count)
            let folded = Int(header.pointee.foldedCount)
            return try body(folded < 0 ? UnsafeBufferPointer(start: bytes, count: count)
                                      : UnsafeBufferPointer(start: bytes + count, count: folded))
        }
    }

    /// The folded key, made as an array (tests, and callers outside the hot paths).
    /// - Complexity: O(length); allocates.
    public var collationKey: CollationKey {
        CollationKey(folded: withFoldSource { $0.map(TitleText.lowercased) })
    }

    /// The 8 folded bytes from `start`, big-endian, zero-padded past the end: when the bytes before `start` are
    /// equal, comparing two such prefixes agrees with comparing the folded keys whenever the prefixes differ.
    /// - Complexity: O(1).
    func foldedPrefix(from start: Int = 0) -> UInt64 {
        withFoldSource { bytes in
            var prefix: UInt64 = 0
            for index in start..<start + 8 {
                prefix = prefix << 8 | (index < bytes.count ? UInt64(TitleText.lowercased(bytes[index])) : 0)
            }
            return prefix
        }
    }

    /// -1, 0 or 1 as `lhs`'s folded key sorts before, with or after `rhs`'s, byte by byte (a prefix first).
    /// - Complexity: O(length of the common prefix).
    static func compareFolded(_ lhs: TitleText, _ rhs: TitleText) -> Int {
        if lhs.block === rhs.block { return 0 }
        return lhs.withFoldSource { left in
            rhs.withFoldSource { right in
                let common = min(left.count, right.count)
                var index = 0
                while index < common {
                    let (a, b) = (lowercased(left[index]), lowercased(right[index]))
                    if a != b { return a < b ? -1 : 1 }
                    index += 1
                }
                return left.count == right.count ? 0 : left.count < right.count ? -1 : 1
            }
        }
    }

    /// Whether `needle` (folded) occurs in the folded key as a contiguous run of bytes.
    /// - Complexity: O(needle × title) at worst.
    func foldedContains(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        return withFoldSource { haystack in
            guard needle.count <= haystack.count else { return false }
            for start in 0...(haystack.count - needle.count) where TitleText.lowercased(haystack[start]) == first {
                var offset = 1
                while offset < needle.count, TitleText.lowercased(haystack[start + offset]) == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            return false
        }
    }

    /// `byte`, an ASCII capital made lowercase (what folding does to ASCII).
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}

extension TitleText: Hashable {
    /// Equal when the titles are (byte for byte; their folds then are too).
    public static func == (lhs: TitleText, rhs: TitleText) -> Bool {
        lhs.block === rhs.block || lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 {
            hasher.combine($0.count)
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
    }
}
