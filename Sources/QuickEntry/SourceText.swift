/// What a person typed, cut into words, with every place in it counted in UTF-16 code units, UTF-8 bytes and
/// Unicode scalars (what LSP clients, Neovim and Emacs each count in).

/// A place in a text: the number of UTF-16 code units, UTF-8 bytes and Unicode scalars before it.
public struct SourcePosition: Hashable, Sendable {
    /// UTF-16 code units before this place (LSP's default, VS Code, JavaScript).
    public var utf16: Int
    /// UTF-8 bytes before this place (Neovim, Vim).
    public var utf8: Int
    /// Unicode scalars before this place (Emacs, Python's `str`).
    public var scalars: Int

    /// A place counted the three ways.
    public init(utf16: Int, utf8: Int, scalars: Int) {
        self.utf16 = utf16
        self.utf8 = utf8
        self.scalars = scalars
    }
}

/// A stretch of a text: from `start` up to, not including, `end`.
public struct SourceRange: Hashable, Sendable {
    /// Where it starts.
    public var start: SourcePosition
    /// Just after its last character.
    public var end: SourcePosition

    /// The stretch between two places.
    public init(start: SourcePosition, end: SourcePosition) {
        self.start = start
        self.end = end
    }
}

/// One word: a maximal run of characters that are not white space, as scalar indexes into the text.
struct Word {
    /// The index of its first scalar.
    let start: Int
    /// One past the index of its last scalar.
    let end: Int
    /// The word as written.
    let text: String
    /// The word lowercased, for keywords (`due:`, `fri`, `!high`).
    let lowered: String
}

/// A text as the grammars read it: its scalars, the place before each of them (and the end), and its words.
///
/// White space is every Unicode `White_Space` character (spaces, tabs, line breaks, no-break spaces); it only
/// separates words.
struct SourceText {
    let scalars: [Unicode.Scalar]
    /// `positions[k]` is the place before scalar `k`; `positions[scalars.count]` is the end.
    let positions: [SourcePosition]
    let words: [Word]

    /// Cuts `text` into words.
    /// - Complexity: O(length of `text`).
    init(_ text: String) {
        var scalars: [Unicode.Scalar] = []
        var positions: [SourcePosition] = []
        var position = SourcePosition(utf16: 0, utf8: 0, scalars: 0)
        for scalar in text.unicodeScalars {
            scalars.append(scalar)
            positions.append(position)
            position.utf16 += UTF16.width(scalar)
            position.utf8 += UTF8.width(scalar)
            position.scalars += 1
        }
        positions.append(position)
        var words: [Word] = []
        var index = 0
        while index < scalars.count {
            guard !scalars[index].properties.isWhitespace else {
                index += 1
                continue
            }
            let start = index
            while index < scalars.count, !scalars[index].properties.isWhitespace { index += 1 }
            let text = SourceText.string(scalars[start..<index])
            words.append(Word(start: start, end: index, text: text, lowered: text.lowercased()))
        }
        self.scalars = scalars
        self.positions = positions
        self.words = words
    }

    /// The range of scalars `start ..< end`, counted the three ways.
    func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(start: positions[start], end: positions[end])
    }

    /// The text of scalars `start ..< end`, as written.
    func text(_ start: Int, _ end: Int) -> String {
        SourceText.string(scalars[start..<end])
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
