// ExchangeIdentity: the uid an export gives an item that has none, and how an import knows it again.

/// The uid an export writes for an item without `Item.uid`: a UUID (version 8, RFC 9562) holding the item's id and
/// the low 48 bits of its creation time in milliseconds, so the same item gets the same uid in every export, a
/// re-import finds it (`TaskState.matchingItem(uid:)`), and an item of another store with the same id is not
/// mistaken for it (it would need the same creation millisecond too).
///
/// Layout, as hexadecimal digits of `tttttttt-tttt-87a5-8iii-iiiiiiiiiiii`: `t` the creation time's low 48 bits,
/// `8` the version, `7a5` taskls's mark, `8` the variant (the top two bits `10`, then two bits of the id), `i` the
/// rest of the id (62 bits in all).
public enum ExchangeIdentity {
    /// The uid an export writes for `item` when it has none of its own.
    /// - Complexity: O(1).
    public static func derivedUID(of item: Item) -> String {
        derivedUID(id: item.id, stamp: stamp(of: item))
    }

    /// The uid an export writes for `item`: its own, else the derived one.
    public static func uid(of item: Item) -> String {
        item.uid ?? derivedUID(of: item)
    }

    /// The 48 bits of the creation time a derived uid holds.
    static func stamp(of item: Item) -> UInt64 {
        UInt64(bitPattern: item.createdAt.milliseconds) & 0xFFFF_FFFF_FFFF
    }

    static func derivedUID(id: ItemID, stamp: UInt64) -> String {
        let raw = id.rawValue & 0x3FFF_FFFF_FFFF_FFFF
        let time = hex(stamp, digits: 12)
        let idHigh = 0x8 | (raw >> 60)
        let idRest = hex(raw & 0x0FFF_FFFF_FFFF_FFFF, digits: 15)
        return String(time.prefix(8)) + "-" + String(time.suffix(4)) + "-87a5-" + hex(idHigh, digits: 1)
            + String(idRest.prefix(3)) + "-" + String(idRest.suffix(12))
    }

    /// Whether `uid` has the derived form.
    public static func isDerived(_ uid: String) -> Bool { parse(uid) != nil }

    /// The item id and creation stamp a derived uid holds, or nil for any other uid.
    static func parse(_ uid: String) -> (ItemID, UInt64)? {
        let bytes = Array(uid.utf8)
        guard bytes.count == 36, bytes[8] == 45, bytes[13] == 45, bytes[18] == 45, bytes[23] == 45,
              Array(bytes[14..<18]) == Array("87a5".utf8) else { return nil }
        var digits: [UInt64] = []
        for (index, byte) in bytes.enumerated() where ![8, 13, 18, 23].contains(index) && !(14..<18).contains(index) {
            guard let digit = hexDigit(byte) else { return nil }
            digits.append(digit)
        }
        // 12 time digits, then the variant digit, then 15 id digits.
        guard digits.count == 28, digits[12] & 0xC == 0x8 else { return nil }
        let stamp = digits[0..<12].reduce(0) { $0 << 4 | $1 }
        let id = digits[13..<28].reduce(digits[12] & 0x3) { $0 << 4 | $1 }
        return (ItemID(id), stamp)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 48...57: UInt64(byte - 48)
        case 97...102: UInt64(byte - 87)
        default: nil
        }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
