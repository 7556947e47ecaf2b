/// The line editor: what each key does to the line being typed, as a pure state machine (no I/O). The terminal
/// loop feeds it keys and draws what it holds; the tests feed it keys and read what it holds.

/// What the editor offers to complete at the cursor: the text from `start` (a character offset) to the cursor
/// is replaced by one of `candidates`.
struct Completion: Equatable, Sendable {
    /// Where the completed word starts, in characters.
    var start: Int
    /// The replacements for the text from `start` to the cursor, in the order to list them.
    var candidates: [String]

    /// Nothing to complete.
    static let none = Completion(start: 0, candidates: [])
}

/// An incremental reverse search through the history (Ctrl-R).
struct ReverseSearch: Equatable, Sendable {
    /// What was typed to search for.
    var query = ""
    /// The history entry that matches (an index into the history), if any.
    var match: Int?
    /// Whether the last search found nothing (the previous match stays shown).
    var failed = false
    /// The line and cursor to go back to when the search is cancelled (Ctrl-G).
    var original: [Character]
    var originalCursor: Int

    /// The prompt the search shows: `(reverse-i-search)'milk': `.
    var prompt: String { (failed ? "(failed reverse-i-search)'" : "(reverse-i-search)'") + query + "': " }
}

/// A line being edited: its characters, the cursor, the kill buffer, a place in the history, a reverse search.
///
/// Bindings (Emacs, as readline and linenoise): Ctrl-A/E or Home/End start/end; Ctrl-B/F or ←/→ one character;
/// Alt-B/F (Ctrl-←/→) one word; Backspace (Ctrl-H) and Delete delete; Ctrl-D deletes, or ends on an empty line;
/// Ctrl-K kills to the end, Ctrl-U to the start, Ctrl-W the word before (to white space), Alt-Backspace /
/// Alt-D a word before/after; Ctrl-Y yanks what was killed; Ctrl-T transposes; ↑/↓ (Ctrl-P/N) walk the history,
/// keeping edits to every line until the line is submitted; Ctrl-R searches the history backwards; Tab completes
/// (a second Tab lists the candidates); Ctrl-L clears the screen; Ctrl-C clears the line, and a second Ctrl-C on
/// the empty line quits; Enter submits.
///
/// A word, for Alt-B/F/D and Alt-Backspace, is a run of letters and digits (CJK ideographs are letters); Ctrl-W
/// uses white space alone, as in a shell.
struct LineEditor {
    /// What a key asks the terminal loop to do.
    enum Outcome: Equatable, Sendable {
        /// The line, the cursor or the search changed (or nothing did): draw it.
        case edited
        /// Enter: run this line.
        case submit(String)
        /// Ctrl-D on an empty line: end the session.
        case end
        /// A second Ctrl-C on an empty line: quit.
        case quit
        /// Ctrl-L: clear the screen, then draw.
        case clearScreen
        /// Ctrl-C: the line was cleared (another Ctrl-C right after quits).
        case interrupted
        /// A second Tab with several candidates: list them, then draw.
        case list([String])
    }

    /// The line's characters.
    private(set) var buffer: [Character] = []
    /// The cursor, as a character offset (0...buffer.count).
    private(set) var cursor = 0
    /// What the last kill took (for Ctrl-Y).
    private(set) var killed = ""
    /// The reverse search under way, if any.
    private(set) var search: ReverseSearch?
    /// The history, oldest first.
    private(set) var history: [String] = []
    /// The history entry shown (`history.count` for the line being typed).
    private(set) var position = 0
    /// Lines edited while walking the history, by position (submitting forgets them).
    private var edits: [Int: [Character]] = [:]
    /// The previous key (a second Tab, a second Ctrl-C).
    private var previous: Key?
    /// What Tab completes.
    private let complete: (String, Int) -> Completion

    /// An empty line over `history` (oldest first); `complete` gives the candidates for the line and cursor.
    init(history: [String] = [], complete: @escaping (String, Int) -> Completion = { _, _ in .none }) {
        self.complete = complete
        begin(history: history)
    }

    /// The line as text.
    var text: String { String(buffer) }

    /// Starts a new, empty line over `history`.
    mutating func begin(history: [String]) {
        self.history = history
        position = history.count
        edits = [:]
        buffer = []
        cursor = 0
        search = nil
        previous = nil
    }

    /// Applies one key.
    mutating func handle(_ key: Key) -> Outcome {
        defer { previous = key }
        if search != nil, let outcome = searching(key) { return outcome }
        switch key {
        case .text(let text): insert(text)
        case .enter: return .submit(text)
        case .tab: return completing()
        case .backspace: if cursor > 0 { remove(cursor - 1..<cursor) }
        case .delete: if cursor < buffer.count { remove(cursor..<cursor + 1) }
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(buffer.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = buffer.count
        case .up: walk(to: position - 1)
        case .down: walk(to: position + 1)
        case .wordLeft: cursor = wordStart(before: cursor)
        case .wordRight: cursor = wordEnd(after: cursor)
        case .deleteWordLeft: kill(wordStart(before: cursor)..<cursor)
        case .deleteWordRight: kill(cursor..<wordEnd(after: cursor))
        case .escape: break
        case .control(let letter): return control(letter)
        }
        return .edited
    }

    /// A Ctrl key.
    private mutating func control(_ letter: Character) -> Outcome {
        switch letter {
        case "a": cursor = 0
        case "e": cursor = buffer.count
        case "b": cursor = max(0, cursor - 1)
        case "f": cursor = min(buffer.count, cursor + 1)
        case "d":
            if buffer.isEmpty { return .end }
            if cursor < buffer.count { remove(cursor..<cursor + 1) }
        case "k": kill(cursor..<buffer.count)
        case "u": kill(0..<cursor)
        case "w": kill(spaceWordStart(before: cursor)..<cursor)
        case "y": insert(killed)
        case "t": transpose()
        case "p": walk(to: position - 1)
        case "n": walk(to: position + 1)
        case "l": return .clearScreen
        case "r": search = ReverseSearch(original: buffer, originalCursor: cursor)
        case "c":
            if buffer.isEmpty && previous == .control("c") { return .quit }
            begin(history: history)
            return .interrupted
        default: break
        }
        return .edited
    }

    /// A key during a reverse search; nil when the key ends the search and then acts as usual.
    private mutating func searching(_ key: Key) -> Outcome? {
        guard var current = search else { return nil }
        switch key {
        case .text(let text):
            current.query += text
            find(&current, from: current.match ?? history.count - 1)
        case .backspace:
            if !current.query.isEmpty { current.query.removeLast() }
            current.match = nil
            find(&current, from: history.count - 1)
        case .control("r"):
            find(&current, from: (current.match ?? history.count) - 1)
        case .control("g"), .control("c"):
            buffer = current.original
            cursor = current.originalCursor
            search = nil
            return .edited
        case .escape:
            search = nil
            return .edited
        default:
            // Any other key takes the match as the line and then does what it does.
            search = nil
            if let match = current.match, match != position {
                edits[position] = current.original
                position = match
            }
            return nil
        }
        search = current
        return .edited
    }

    /// Looks for the query in the history from entry `start` backwards; shows the match, or marks the search failed.
    private mutating func find(_ current: inout ReverseSearch, from start: Int) {
        guard !current.query.isEmpty else {
            current.failed = false
            return
        }
        let query = current.query.lowercased()
        var index = min(start, history.count - 1)
        while index >= 0 {
            let entry = history[index].lowercased()
            if let range = entry.firstRange(of: query) {
                current.match = index
                current.failed = false
                buffer = Array(history[index])
                cursor = min(entry.distance(from: entry.startIndex, to: range.lowerBound), buffer.count)
                return
            }
            index -= 1
        }
        current.failed = true
    }

    /// Tab: one candidate completes (with a space after it); several complete their common beginning, and a
    /// second Tab lists them.
    private mutating func completing() -> Outcome {
        let completion = complete(text, cursor)
        let start = min(max(0, completion.start), cursor)
        let typed = String(buffer[start..<cursor])
        switch completion.candidates.count {
        case 0: return .edited
        case 1:
            replace(start..<cursor, with: completion.candidates[0] + (cursor < buffer.count && buffer[cursor] == " " ? "" : " "))
            if cursor < buffer.count && buffer[cursor] == " " { cursor += 1 }
            return .edited
        default:
            let common = commonPrefix(completion.candidates)
            if common.count > typed.count {
                replace(start..<cursor, with: common)
                return .edited
            }
            return previous == .tab ? .list(completion.candidates) : .edited
        }
    }

    /// The longest beginning all of `texts` share, in characters.
    private func commonPrefix(_ texts: [String]) -> String {
        guard var prefix = texts.first.map(Array.init) else { return "" }
        for text in texts.dropFirst() {
            let characters = Array(text)
            var length = 0
            while length < min(prefix.count, characters.count) && prefix[length] == characters[length] { length += 1 }
            prefix = Array(prefix[..<length])
        }
        return String(prefix)
    }

    /// Moves through the history to `target` (clamped), keeping the edits of the line it leaves.
    private mutating func walk(to target: Int) {
        let destination = min(max(0, target), history.count)
        guard destination != position else { return }
        edits[position] = buffer
        position = destination
        buffer = edits[position] ?? (position < history.count ? Array(history[position]) : [])
        cursor = buffer.count
    }

    /// Inserts `text` at the cursor. Characters that join what is around them (a combining accent, a zero-width
    /// joiner) make one character with it, as the terminal draws them.
    private mutating func insert(_ text: String) {
        replace(cursor..<cursor, with: text)
    }

    /// Replaces `range` with `text`; the cursor goes after it.
    private mutating func replace(_ range: Range<Int>, with text: String) {
        let before = String(buffer[..<range.lowerBound]) + text
        let after = String(buffer[range.upperBound...])
        let merged = Array(before + after)
        cursor = min(Array(before).count, merged.count)
        buffer = merged
    }

    /// Removes `range`.
    private mutating func remove(_ range: Range<Int>) {
        replace(range, with: "")
        cursor = range.lowerBound
    }

    /// Removes `range` into the kill buffer (an empty range keeps what was killed before).
    private mutating func kill(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        killed = String(buffer[range])
        remove(range)
    }

    /// Swaps the characters before and at the cursor (the last two at the end of the line); the cursor moves on.
    private mutating func transpose() {
        guard buffer.count >= 2, cursor > 0 else { return }
        let at = cursor == buffer.count ? cursor - 1 : cursor
        buffer.swapAt(at - 1, at)
        cursor = at + 1
    }

    /// Whether a character is part of a word (letters and digits).
    private static func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber }

    /// The start of the word before `offset` (skipping what is not a word first).
    private func wordStart(before offset: Int) -> Int {
        var index = offset
        while index > 0 && !Self.isWord(buffer[index - 1]) { index -= 1 }
        while index > 0 && Self.isWord(buffer[index - 1]) { index -= 1 }
        return index
    }

    /// The end of the word after `offset` (skipping what is not a word first).
    private func wordEnd(after offset: Int) -> Int {
        var index = offset
        while index < buffer.count && !Self.isWord(buffer[index]) { index += 1 }
        while index < buffer.count && Self.isWord(buffer[index]) { index += 1 }
        return index
    }

    /// The start of the white-space-delimited word before `offset` (Ctrl-W).
    private func spaceWordStart(before offset: Int) -> Int {
        var index = offset
        while index > 0 && buffer[index - 1].isWhitespace { index -= 1 }
        while index > 0 && !buffer[index - 1].isWhitespace { index -= 1 }
        return index
    }
}
