/// How many terminal cells text takes: East Asian wide and fullwidth characters and emoji take two,
/// combining marks, zero-width joiners, variation selectors and other format characters none, the rest one.
/// Measured per grapheme cluster (`Character`), as terminals draw them: an emoji ZWJ sequence or a letter
/// with its combining accents is one cluster, as wide as its first character. A text-style symbol followed by
/// the emoji variation selector (`❤️`, U+2764 U+FE0F) stays one cell, as tmux, xterm and VTE draw it (checked in
/// tmux 3.3: the cursor moves one column; a few terminals such as kitty draw two).

/// Terminal cell widths of characters and text.
enum DisplayWidth {
    /// The cells `character` takes: 0, 1 or 2.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        if isWide(first.value) { return 2 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        return 1
    }

    /// The cells `text` takes.
    /// - Complexity: O(n) in the length of `text`.
    static func of<Text: StringProtocol>(_ text: Text) -> Int {
        var cells = 0
        for character in text { cells += of(character) }
        return cells
    }

    /// `text` cut to at most `width` cells, ending with `…` when something was cut off. A wide character that
    /// would straddle the limit is left out (the result may then be one cell narrower).
    static func truncated(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var result = ""
        var cells = 0
        for character in text {
            let next = of(character)
            if cells + next > width - 1 { break }
            result.append(character)
            cells += next
        }
        return result + "…"
    }

    /// `text` followed by spaces up to `width` cells (unchanged when it is already as wide).
    static func padded(_ text: String, toWidth width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// Spaces up to `width` cells, then `text` (unchanged when it is already as wide).
    static func paddedLeft(_ text: String, toWidth width: Int) -> String {
        String(repeating: " ", count: max(0, width - of(text))) + text
    }

    /// Whether a scalar takes no cell: a nonspacing or enclosing mark, a format character (zero-width joiner,
    /// soft hyphen's relatives), a variation selector, a Hangul medial or final jamo, or a control character.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: break
        }
        return (0x1160...0x11FF).contains(scalar.value) || (0xFE00...0xFE0F).contains(scalar.value)
            || (0xE0100...0xE01EF).contains(scalar.value)
    }

    /// Whether a scalar is East Asian Wide or Fullwidth (Unicode's EastAsianWidth.txt, `W` and `F`), in the
    /// blocks terminals draw two cells wide.
    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        for range in wideRanges where range.contains(value) { return true }
        return false
    }

    /// The wide and fullwidth ranges, in order.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul initial jamo
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes, enclosed
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4, // ideographic symbols
        0x17000...0x18AFF, // Tangut
        0x1B000...0x1B2FF, // Kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x20000...0x2FFFD, // CJK extensions B to F
        0x30000...0x3FFFD, // CJK extension G and beyond
    ]
}
