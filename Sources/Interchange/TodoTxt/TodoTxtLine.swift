// TodoTxtLine: one line of a todo.txt file split into its head (`x`, dates, `(A)`) and its words, each word
// classified (a plain word, `+project`, `@context`, `key:value`). Syntax only: no value is read here.

/// A line of todo.txt taken apart, as the todo.txt rules say (github.com/todotxt/todo.txt): `x ` first marks a
/// done task, followed by its completion date and maybe its creation date; otherwise `(A) ` first is its
/// priority, followed by maybe its creation date; otherwise a date first is its creation date. The rest are
/// words, separated by white space (spaces and tabs, any number).
struct TodoTxtLine {
    /// What a word of the body is.
    enum Kind: Equatable {
        /// An ordinary word of the title.
        case plain
        /// `+name` (a project: taskls's list).
        case project
        /// `@name` (a context: taskls's tag).
        case context
        /// `key:value`: one colon, a key starting with a letter, a value not starting with `//` (a URL is a word).
        /// The key `project` makes a plain word (its extra's key would be a project's).
        case pair(key: Substring, value: Substring)
    }

    /// One word of the body and what it is.
    struct Word {
        /// The word as written.
        var text: Substring
        /// What it is.
        var kind: Kind
    }

    /// Whether the line starts with `x `.
    var done = false
    /// The completion date's text (date-shaped, not checked), after `x`.
    var completionDate: Substring?
    /// The creation date's text (date-shaped, not checked).
    var creationDate: Substring?
    /// The priority letter of `(A)`, `A` through `Z`.
    var priority: Character?
    /// The words after the head, in order.
    var words: [Word] = []

    /// Takes `line` apart (a line without its line break). A line of white space only has no words and no head.
    /// - Complexity: O(length of the line).
    init(_ line: Substring) {
        var tokens = TodoTxtLine.tokens(of: line)[...]
        guard let first = tokens.first else { return }
        if first == "x", tokens.count > 1 {
            done = true
            tokens.removeFirst()
            if let date = tokens.first, TodoTxtLine.isDateShaped(date) {
                completionDate = date
                tokens.removeFirst()
                if let date = tokens.first, TodoTxtLine.isDateShaped(date) {
                    creationDate = date
                    tokens.removeFirst()
                }
            }
        } else {
            if let letter = TodoTxtLine.priorityLetter(first) {
                priority = letter
                tokens.removeFirst()
            }
            if let date = tokens.first, TodoTxtLine.isDateShaped(date) {
                creationDate = date
                tokens.removeFirst()
            }
        }
        words = tokens.map { Word(text: $0, kind: TodoTxtLine.kind(of: $0)) }
    }

    /// The bytes that separate words: space, tab, carriage return, vertical tab, form feed.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The words of `line`, split at runs of white space.
    static func tokens(of line: Substring) -> [Substring] {
        line.utf8.split(whereSeparator: isSpace).map { Substring($0) }
    }

    /// Whether `word` has the shape `DDDD-DD-DD` (the date itself is not checked).
    static func isDateShaped(_ word: Substring) -> Bool {
        let bytes = word.utf8
        guard bytes.count == 10 else { return false }
        for (offset, byte) in bytes.enumerated() {
            let wanted = offset == 4 || offset == 7
            guard wanted ? byte == 0x2D : (0x30...0x39).contains(byte) else { return false }
        }
        return true
    }

    /// The letter of a priority word `(A)` … `(Z)`, or nil.
    static func priorityLetter(_ word: Substring) -> Character? {
        let bytes = Array(word.utf8)
        guard bytes.count == 3, bytes[0] == 0x28, bytes[2] == 0x29, (0x41...0x5A).contains(bytes[1]) else { return nil }
        return Character(Unicode.Scalar(bytes[1]))
    }

    /// What `word` is: `+x` a project, `@x` a context, `key:value` a pair, anything else plain.
    static func kind(of word: Substring) -> Kind {
        let bytes = word.utf8
        guard let first = bytes.first else { return .plain }
        if bytes.count > 1, first == 0x2B { return .project }
        if bytes.count > 1, first == 0x40 { return .context }
        guard isLetter(first), let colon = bytes.firstIndex(of: 0x3A) else { return .plain }
        let value = bytes[bytes.index(after: colon)...]
        guard !value.isEmpty, !value.contains(0x3A), !value.starts(with: [0x2F, 0x2F]) else { return .plain }
        let key = Substring(bytes[..<colon])
        return key == "project" ? .plain : .pair(key: key, value: Substring(value))
    }

    /// Whether `byte` is an ASCII letter.
    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
}
