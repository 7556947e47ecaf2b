// TodoTxtLine: one line of a todo.txt file split into its head (`x`, dates, `(A)`) and its words, each word
// classified (a plain word, `+project`, `@context`, `key:value`). Syntax only, on bytes: no value is read here.

/// A line of todo.txt taken apart, as the todo.txt rules say (github.com/todotxt/todo.txt): `x ` first marks a
/// done task, followed by its completion date and maybe its creation date; otherwise `(A) ` first is its
/// priority, followed by maybe its creation date; otherwise a date first is its creation date. The rest are
/// words, separated by white space (spaces and tabs, any number).
///
/// The parts are byte ranges of `bytes` (the whole file's UTF-8, shared by its lines): nothing is copied until a
/// value is read.
struct TodoTxtLine {
    /// What a word of the body is.
    enum Kind: Equatable {
        /// An ordinary word of the title.
        case plain
        /// `+name` (a project: taskls's list).
        case project
        /// `@name` (a context: taskls's tag).
        case context
        /// `key:value` (the colon at this offset of `bytes`): one colon, a key starting with an ASCII letter, a value
        /// not starting with `//` (a URL is a word). The key `project` makes a plain word (its extra's key would be a
        /// project's).
        case pair(colon: Int)
    }

    /// One word of the body and what it is.
    struct Word: Equatable {
        /// Where it is in `bytes`.
        var range: Range<Int>
        /// What it is.
        var kind: Kind
    }

    /// The UTF-8 of the text the line is in.
    let bytes: [UInt8]
    /// Whether the line starts with `x `.
    var done = false
    /// The completion date (date-shaped, not checked), after `x`.
    var completionDate: Range<Int>?
    /// The creation date (date-shaped, not checked).
    var creationDate: Range<Int>?
    /// The priority letter of `(A)`, `A` through `Z`, as a byte.
    var priority: UInt8?
    /// The words after the head, in order.
    var words: [Word] = []

    /// Takes apart the line at `range` of `bytes` (without its line break). A line of white space only has no
    /// words and no head.
    /// - Complexity: O(length of the line).
    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        var tokens = TodoTxtLine.tokens(of: bytes, in: range)[...]
        guard let first = tokens.first else { return }
        if bytes[first] == [0x78], tokens.count > 1 {
            done = true
            tokens.removeFirst()
            if let date = tokens.first, TodoTxtLine.isDateShaped(bytes[date]) {
                completionDate = date
                tokens.removeFirst()
                if let date = tokens.first, TodoTxtLine.isDateShaped(bytes[date]) {
                    creationDate = date
                    tokens.removeFirst()
                }
            }
        } else {
            if let letter = TodoTxtLine.priorityLetter(bytes[first]) {
                priority = letter
                tokens.removeFirst()
            }
            if let date = tokens.first, TodoTxtLine.isDateShaped(bytes[date]) {
                creationDate = date
                tokens.removeFirst()
            }
        }
        words.reserveCapacity(tokens.count)
        for token in tokens { words.append(Word(range: token, kind: TodoTxtLine.kind(of: bytes, in: token))) }
    }

    /// Takes apart one line of text.
    init(_ line: Substring) {
        let bytes = Array(line.utf8)
        self.init(bytes: bytes, range: 0..<bytes.count)
    }

    /// The text at `range`.
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// Whether the bytes at `range` spell `literal` (ASCII).
    func spells(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { $0.elementsEqual(bytes[range]) }
    }

    /// The bytes that separate words: space, tab, line feed, vertical tab, form feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The words of `range` of `bytes`, split at runs of white space.
    /// - Complexity: O(length of the range).
    static func tokens(of bytes: [UInt8], in range: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var index = range.lowerBound
        while index < range.upperBound {
            while index < range.upperBound, isSpace(bytes[index]) { index += 1 }
            guard index < range.upperBound else { break }
            let start = index
            while index < range.upperBound, !isSpace(bytes[index]) { index += 1 }
            result.append(start..<index)
        }
        return result
    }

    /// The words of `text`, split at runs of white space.
    static func tokens(of text: String) -> [Substring] {
        let bytes = Array(text.utf8)
        return tokens(of: bytes, in: 0..<bytes.count).map { Substring(String(decoding: bytes[$0], as: UTF8.self)) }
    }

    /// Whether `word` has the shape `DDDD-DD-DD` (the date itself is not checked).
    static func isDateShaped(_ word: some Collection<UInt8>) -> Bool {
        guard word.count == 10 else { return false }
        var offset = 0
        for byte in word {
            let wanted = offset == 4 || offset == 7
            guard wanted ? byte == 0x2D : (0x30...0x39).contains(byte) else { return false }
            offset += 1
        }
        return true
    }

    /// The letter of a priority word `(A)` … `(Z)`, or nil.
    static func priorityLetter(_ word: ArraySlice<UInt8>) -> UInt8? {
        guard word.count == 3, word[word.startIndex] == 0x28, word[word.startIndex + 2] == 0x29,
              (0x41...0x5A).contains(word[word.startIndex + 1]) else { return nil }
        return word[word.startIndex + 1]
    }

    /// What the word at `range` of `bytes` is: `+x` a project, `@x` a context, `key:value` a pair, else plain.
    static func kind(of bytes: [UInt8], in range: Range<Int>) -> Kind {
        guard !range.isEmpty else { return .plain }
        let first = bytes[range.lowerBound]
        if range.count > 1, first == 0x2B { return .project }
        if range.count > 1, first == 0x40 { return .context }
        guard isLetter(first), let colon = bytes[range].firstIndex(of: 0x3A) else { return .plain }
        let value = bytes[(colon + 1)..<range.upperBound]
        guard !value.isEmpty, !value.contains(0x3A), !value.starts(with: [0x2F, 0x2F]),
              !bytes[range.lowerBound..<colon].elementsEqual("project".utf8) else { return .plain }
        return .pair(colon: colon)
    }

    /// What `word` is (see `kind(of:in:)`; a pair's colon is at that offset of the word's UTF-8).
    static func kind(of word: some StringProtocol) -> Kind {
        let bytes = Array(word.utf8)
        return kind(of: bytes, in: 0..<bytes.count)
    }

    /// Whether `byte` is an ASCII letter.
    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
}
