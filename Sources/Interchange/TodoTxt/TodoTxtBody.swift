// TodoTxtBody: a line's words sorted into the title, the list (its first +project), the tags (@contexts) and the
// key:value pairs, by the rule protocol.md states; the writer reads its own lines back with it too.

/// The words of a line after its head, sorted out.
///
/// The title runs from the first plain word to the last: the `+projects`, `@contexts` and unknown `key:value`
/// words between them stay in it as written (they read as part of the sentence: "Call @Mom about +Garage sale"),
/// and still count (the context is a tag, the first project the list). The keys taskls reads (`due`, `rec`,
/// `rrule`, `uid`, `parent`, `pri`) are taken out wherever they are. What lies before the first plain word or after
/// the last is taken out of the title: its contexts are tags, its projects after the first are kept as extras
/// (`todotxt:project`), its unknown pairs as extras (`todotxt:KEY`). A line without plain words has its projects
/// and contexts as its title.
struct TodoTxtBody {
    /// The title: its words joined by one space; empty when the line has none.
    var title = ""
    /// The first project's name (`_` read as a space), wherever it is.
    var list: String?
    /// The contexts' names (`_` read as a space), in order, without repeats.
    var tags: [String] = []
    /// The extras, in the line's order: `project` for the projects outside the title after the first (the name as
    /// written), and the unknown pairs outside the title by their key.
    var extras: [(key: String, value: String)] = []
    /// The pairs of the known keys, in the line's order.
    var known: [(key: String, value: String)] = []

    /// Sorts out the words of `line`.
    /// - Complexity: O(length of the line), tags deduplicated in O(tags²) (a line has a handful).
    init(_ line: TodoTxtLine) {
        let words = line.words
        let bytes = line.bytes
        let firstPlain = words.firstIndex { $0.kind == .plain }
        let lastPlain = words.lastIndex { $0.kind == .plain }
        var title: [UInt8] = []
        func addToTitle(_ range: Range<Int>) {
            if !title.isEmpty { title.append(0x20) }
            title.append(contentsOf: bytes[range])
        }
        for (index, word) in words.enumerated() {
            let inTitle: Bool
            if let firstPlain, let lastPlain {
                inTitle = index >= firstPlain && index <= lastPlain
            } else {
                inTitle = word.kind == .project || word.kind == .context
            }
            let range = word.range
            switch word.kind {
            case .plain:
                addToTitle(range)
            case .project:
                let name = range.dropFirst()
                if list == nil {
                    list = TodoTxtBody.name(bytes[name])
                    if inTitle { addToTitle(range) }
                } else if inTitle {
                    addToTitle(range)
                } else {
                    extras.append((key: "project", value: line.text(name)))
                }
            case .context:
                let tag = TodoTxtBody.name(bytes[range.dropFirst()])
                if !tags.contains(tag) { tags.append(tag) }
                if inTitle { addToTitle(range) }
            case .pair(let colon):
                let key = range.lowerBound..<colon
                if TodoTxtBody.isKnown(bytes[key]) {
                    known.append((key: line.text(key), value: line.text((colon + 1)..<range.upperBound)))
                } else if inTitle {
                    addToTitle(range)
                } else {
                    extras.append((key: line.text(key), value: line.text((colon + 1)..<range.upperBound)))
                }
            }
        }
        self.title = String(decoding: title, as: UTF8.self)
    }

    /// Whether `key` has a meaning in taskls (`due`, `rec`, `rrule`, `uid`, `parent`, `pri`): always taken out of
    /// the title.
    static func isKnown(_ key: some Collection<UInt8>) -> Bool {
        switch key.count {
        case 3: key.elementsEqual("due".utf8) || key.elementsEqual("rec".utf8) || key.elementsEqual("uid".utf8)
            || key.elementsEqual("pri".utf8)
        case 5: key.elementsEqual("rrule".utf8)
        case 6: key.elementsEqual("parent".utf8)
        default: false
        }
    }

    /// A project's or context's name as taskls keeps it: `_` read as a space.
    static func name(_ written: ArraySlice<UInt8>) -> String {
        guard written.contains(0x5F) else { return String(decoding: written, as: UTF8.self) }
        return String(decoding: written.map { $0 == 0x5F ? 0x20 : $0 }, as: UTF8.self)
    }

    /// A list's or tag's name as todo.txt writes it after `+` or `@`: white space written as `_`.
    static func written(_ name: String) -> String {
        guard name.utf8.contains(where: { TodoTxtLine.isSpace($0) || $0 >= 0x80 }) else { return name }
        return String(name.map { $0.isWhitespace ? "_" : $0 })
    }
}
