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
    /// The keys with a meaning in taskls: always taken out of the title.
    static let knownKeys: Set<Substring> = ["due", "rec", "rrule", "uid", "parent", "pri"]

    /// The title: its words joined by one space; empty when the line has none.
    var title = ""
    /// The first project's name (`_` read as a space), wherever it is.
    var list: String?
    /// The contexts' names (`_` read as a space), in order, without repeats.
    var tags: [String] = []
    /// The extras, in the line's order: `project` for the projects outside the title after the first (the name as
    /// written), and the unknown pairs outside the title by their key.
    var extras: [(key: Substring, value: Substring)] = []
    /// The pairs of the known keys, in the line's order.
    var known: [(key: Substring, value: Substring)] = []

    /// Sorts out `words`.
    /// - Complexity: O(number of words), tags deduplicated in O(tags²) (a line has a handful).
    init(_ words: [TodoTxtLine.Word]) {
        let firstPlain = words.firstIndex { $0.kind == .plain }
        let lastPlain = words.lastIndex { $0.kind == .plain }
        var titleWords: [Substring] = []
        for (index, word) in words.enumerated() {
            let inTitle: Bool
            if let firstPlain, let lastPlain {
                inTitle = (firstPlain...lastPlain).contains(index)
            } else {
                inTitle = word.kind == .project || word.kind == .context
            }
            switch word.kind {
            case .plain:
                titleWords.append(word.text)
            case .project:
                let name = TodoTxtBody.name(word.text.dropFirst())
                if list == nil {
                    list = name
                    if inTitle { titleWords.append(word.text) }
                } else if inTitle {
                    titleWords.append(word.text)
                } else {
                    extras.append((key: "project", value: word.text.dropFirst()))
                }
            case .context:
                let tag = TodoTxtBody.name(word.text.dropFirst())
                if !tags.contains(tag) { tags.append(tag) }
                if inTitle { titleWords.append(word.text) }
            case .pair(let key, let value):
                if TodoTxtBody.knownKeys.contains(key) {
                    known.append((key: key, value: value))
                } else if inTitle {
                    titleWords.append(word.text)
                } else {
                    extras.append((key: key, value: value))
                }
            }
        }
        title = titleWords.joined(separator: " ")
    }

    /// A project's or context's name as taskls keeps it: `_` read as a space.
    static func name(_ written: Substring) -> String {
        String(written.map { $0 == "_" ? " " : $0 })
    }

    /// A list's or tag's name as todo.txt writes it after `+` or `@`: white space written as `_`.
    static func written(_ name: String) -> String {
        String(name.map { $0.isWhitespace ? "_" : $0 })
    }
}
