/// Bytes from a terminal in raw mode → keys: UTF-8 text, control keys, and the escape sequences of the
/// common terminals (xterm, VT100/VT220, rxvt, the Linux console, tmux, screen).

/// A decoder of the terminal's bytes into keys. Bytes come in chunks as `read` returns them; a sequence cut
/// between chunks is kept until the rest arrives (`decode`), or until the caller decides nothing more is
/// coming (`flush`: a lone ESC is then the Escape key).
///
/// Accepted sequences (each also without the `1;MOD` parameter, where it has one):
/// - arrows: `ESC[A` `ESC[B` `ESC[C` `ESC[D` and `ESCOA`…`ESCOD`; with Ctrl or Alt (`ESC[1;5C`, `ESC[1;3D`) → word motion;
/// - Home: `ESC[H` `ESCOH` `ESC[1~` `ESC[7~`; End: `ESC[F` `ESCOF` `ESC[4~` `ESC[8~`; Delete: `ESC[3~`;
/// - Alt-B / Alt-F (`ESC b`, `ESC f`) → word motion; Alt-D (`ESC d`); Alt-Backspace (`ESC DEL`, `ESC ^H`).
///
/// Any other CSI (`ESC[` parameters, intermediates, one final byte) or SS3 (`ESC O` and one byte) sequence,
/// and any other Alt key, is swallowed whole: nothing of it is ever inserted as text. Invalid UTF-8 is dropped.
struct KeyDecoder {
    /// Bytes of an incomplete sequence or character, waiting for the rest.
    private(set) var pending: [UInt8] = []

    /// The most bytes an unfinished CSI sequence may keep waiting; beyond that it is garbage and is dropped.
    static let longestSequence = 256

    init() {}

    /// The keys in `bytes` (after what was pending). Consecutive printable characters come as one `.text`.
    /// - Complexity: O(n) in the number of bytes.
    mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(in: pending[index...]) else { break }
            if let key {
                if case .text(let text) = key, case .text(let before)? = keys.last {
                    keys[keys.count - 1] = .text(before + text)
                } else {
                    keys.append(key)
                }
            }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// Ends what is pending: a lone ESC becomes `.escape`; an incomplete sequence or character is dropped.
    mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    /// The key at the start of `bytes` and how many bytes it took (a nil key for a swallowed sequence),
    /// or nil when `bytes` holds only the beginning of one.
    private static func key(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B: return escape(in: bytes)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x08, 0x7F: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        case 0x20...0x7E: return (.text(String(Unicode.Scalar(first))), 1)
        default: return character(in: bytes)
        }
    }

    /// A multi-byte UTF-8 character at the start of `bytes`; an invalid byte is dropped alone.
    private static func character(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        let length: Int
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)
        }
        for offset in 1..<length {
            guard bytes.startIndex + offset < bytes.endIndex else { return nil }
            let byte = bytes[bytes.startIndex + offset]
            guard byte & 0xC0 == 0x80 else { return (nil, offset) }
        }
        let encoded = bytes[bytes.startIndex..<bytes.startIndex + length]
        var scalars = String.UnicodeScalarView()
        var decoder = UTF8()
        var iterator = encoded.makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return (nil, length) }
        // C1 controls and the bidi overrides never enter a line: they could drive or reorder the terminal.
        if (0x80...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
            return (nil, length)
        }
        scalars.append(scalar)
        return (.text(String(scalars)), length)
    }

    /// The sequence that starts with ESC at the start of `bytes`.
    private static func escape(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let second = bytes[start + 1]
        switch second {
        case UInt8(ascii: "["): return controlSequence(in: bytes)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return nil }
            return (singleShift(bytes[start + 2]), 3)
        case UInt8(ascii: "b"): return (.wordLeft, 2)
        case UInt8(ascii: "f"): return (.wordRight, 2)
        case UInt8(ascii: "d"): return (.deleteWordRight, 2)
        case 0x7F, 0x08: return (.deleteWordLeft, 2)
        case 0x1B: return (.escape, 1)
        case 0x20...0x7E: return (nil, 2)
        default: return (.escape, 1)
        }
    }

    /// The key of an SS3 sequence (`ESC O` and `final`).
    private static func singleShift(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// A CSI sequence: `ESC [`, parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F), one final byte
    /// (0x40–0x7E). A byte outside those ends it (swallowed with what came before); an unfinished one longer than
    /// `longestSequence` is dropped.
    private static func controlSequence(in bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        var index = start + 2
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case 0x20...0x3F:
                index += 1
            case 0x40...0x7E:
                let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
                return (controlKey(parameters: parameters, final: byte), index + 1 - start)
            default:
                return (nil, index - start)
            }
        }
        return bytes.count > longestSequence ? (nil, bytes.count) : nil
    }

    /// The key of a complete CSI sequence, or nil for one the editor does not use.
    private static func controlKey(parameters: String, final: UInt8) -> Key? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        let modifier = fields.count > 1 ? Int(fields[1]) ?? 1 : 1
        // Modifier 3 is Alt, 5 Ctrl (and the combinations with Shift, 4 and 6, and both, 7 and 8).
        let word = modifier >= 3
        switch final {
        case UInt8(ascii: "A"): return modifier == 1 ? .up : nil
        case UInt8(ascii: "B"): return modifier == 1 ? .down : nil
        case UInt8(ascii: "C"): return word ? .wordRight : .right
        case UInt8(ascii: "D"): return word ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch fields.first.flatMap({ Int($0) }) {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            default: return nil
            }
        default: return nil
        }
    }
}
