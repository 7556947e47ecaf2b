/// The serializer's output buffer: bytes written through a pointer, capacity checked once per value, not per byte.

/// A growable byte buffer the serializer writes into, owned by one `write` call.
///
/// `JSONSerializer` checks the room a whole value needs once (`reserve`), then stores its bytes with the
/// unchecked `put` calls; so a string costs one capacity check and one copy, not a check per byte.
@usableFromInline
struct ByteSink: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    /// An empty buffer with room for `capacity` bytes (at least 64).
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    @inlinable deinit { base.deallocate() }

    /// The bytes written so far.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes, doubling the capacity as needed.
    /// - Complexity: O(1) amortized.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @usableFromInline
    mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Stores one byte; `reserve` must have made room for it.
    @inlinable @inline(__always)
    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Stores `bytes`; `reserve` must have made room for them.
    @inlinable @inline(__always)
    mutating func put(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        (base + count).update(from: bytes, count: length)
        count += length
    }

    /// Counts `length` bytes as written without storing them (room a caller fills in later through `base`);
    /// `reserve` must have made room for them.
    mutating func skip(_ length: Int) {
        count += length
    }

    /// Forgets the last `length` bytes written.
    mutating func removeLast(_ length: Int) {
        count -= length
    }

    /// Forgets every byte written, keeping the capacity unless it is over `keepingAtMost` bytes (then it goes
    /// back to that).
    mutating func removeAll(keepingAtMost limit: Int) {
        count = 0
        if capacity > limit {
            base.deallocate()
            capacity = limit
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: limit)
        }
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    /// Appends the bytes of a literal.
    @inlinable @inline(__always)
    mutating func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        put(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends bytes.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        reserve(bytes.count)
        put(start, count: bytes.count)
    }

    /// The decimal digits of 0 through 99, two bytes each.
    @usableFromInline static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Stores the decimal digits of `value`, which has exactly `digits` of them, two at a time from the last;
    /// `reserve` must have made room for them.
    @inlinable
    mutating func putDecimal(_ value: UInt64, digits: Int) {
        let pairs = Self.digitPairs.utf8Start
        var value = value
        var end = base + count + digits
        while value >= 100 {
            let pair = Int(value % 100) &* 2
            value /= 100
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair + 1]
        }
        if value >= 10 {
            let pair = Int(value) &* 2
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair + 1]
        } else {
            end -= 1
            end[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value)
        }
        count += digits
    }
}
