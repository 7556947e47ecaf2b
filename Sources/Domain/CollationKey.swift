// CollationKey: a title folded once to lowercase base letters, compared as bytes (never a locale compare).

/// The precomputed key a title sort compares: case- and diacritic-insensitive, as UTF-8 bytes.
///
/// Folding lowercases each scalar, replaces a precomposed letter by its base letter (`É` → `e`,
/// `ǖ` → `u`, `ά` → `α`), drops combining marks, and spells out a few letters that have no
/// decomposition (`ß` → `ss`, `æ` → `ae`, `œ` → `oe`, `ø` → `o`, `ł` → `l`, `đ` → `d`, `ı` → `i`).
/// "Éclair" and "eclair" get the same key; ties are broken by the sort, not here.
public struct CollationKey: Hashable, Comparable, Sendable {
    /// The folded text, UTF-8 encoded.
    public let bytes: [UInt8]

    /// Folds `text`.
    /// - Complexity: O(length of `text`); done once per title change, never inside a comparison.
    public init(folding text: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                bytes.append(UInt8(value >= 0x41 && value <= 0x5A ? value + 0x20 : value))
            } else {
                CollationKey.appendFolded(scalar, to: &bytes)
            }
        }
        self.bytes = bytes
    }

    private static func appendFolded(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        if let base = foldTable[scalar.value], let folded = Unicode.Scalar(base) {
            bytes.append(contentsOf: String(folded).utf8)
            return
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return
        default:
            break
        }
        let lower = scalar.properties.lowercaseMapping
        switch lower {
        case "ß": bytes.append(contentsOf: "ss".utf8)
        case "æ": bytes.append(contentsOf: "ae".utf8)
        case "œ": bytes.append(contentsOf: "oe".utf8)
        case "ø": bytes.append(contentsOf: "o".utf8)
        case "ł": bytes.append(contentsOf: "l".utf8)
        case "đ": bytes.append(contentsOf: "d".utf8)
        case "ı": bytes.append(contentsOf: "i".utf8)
        default: bytes.append(contentsOf: lower.utf8)
        }
    }

    /// A key of bytes already folded.
    init(folded bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Orders keys by their bytes.
    /// - Complexity: O(length of the common prefix).
    public static func < (lhs: CollationKey, rhs: CollationKey) -> Bool {
        compareBytes(lhs.bytes, rhs.bytes) < 0
    }
}
