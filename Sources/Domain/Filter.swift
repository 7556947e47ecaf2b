// Filter: which items of a view's source it shows (text, completion, tags, priority, due bounds).

/// A condition on items; a view shows the items of its source that match. Every field left at its
/// default matches everything.
public struct Filter: Hashable, Sendable {
    /// Which items by completion.
    public enum Completion: String, CaseIterable, Hashable, Sendable {
        /// Done or not.
        case any
        /// Only done items.
        case done
        /// Only items not done.
        case notDone
    }

    /// Text that must occur in the title or the notes, case- and diacritic-insensitive (folded like
    /// `CollationKey`); empty matches everything.
    public var text: String {
        didSet { foldedText = CollationKey(folding: text).bytes }
    }
    /// Which items by completion.
    public var done: Completion
    /// When not empty, an item must carry at least one of these tags. Tags compare as an item's
    /// own tags do: case-sensitively, not trimmed, with `String`'s `==` (two Unicode spellings of
    /// one text, NFC and NFD, are equal). Empty: no condition.
    public var tagsAnyOf: [String]
    /// An item must carry every one of these tags (compared as for `tagsAnyOf`). Empty: no condition.
    public var tagsAllOf: [String]
    /// When set, an item's priority must be at least this.
    public var priorityAtLeast: Priority?
    /// When set, an item must have a due strictly before this one in the due sort (wall-clock reading; a
    /// day sorts before any time on it). Items without a due never match.
    public var dueBefore: Due?
    /// When set, an item must have a due strictly after this one in the due sort (so a time on day D is
    /// after the day D itself). Items without a due never match.
    public var dueAfter: Due?
    private var foldedText: [UInt8]

    /// Makes a filter; the defaults match everything.
    public init(text: String = "", done: Completion = .any, tagsAnyOf: [String] = [], tagsAllOf: [String] = [],
                priorityAtLeast: Priority? = nil, dueBefore: Due? = nil, dueAfter: Due? = nil) {
        self.text = text
        self.done = done
        self.tagsAnyOf = tagsAnyOf
        self.tagsAllOf = tagsAllOf
        self.priorityAtLeast = priorityAtLeast
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
        foldedText = CollationKey(folding: text).bytes
    }

    /// The filter that matches every item.
    public static let all = Filter()

    /// Whether `item` matches.
    /// - Complexity: O(1) without text; with text O(title + notes) (the notes are folded on each call).
    public func matches(_ item: Item) -> Bool {
        var foldedNotes: [UInt8]?
        return matches(item, foldedNotes: &foldedNotes)
    }

    /// `matches(_:)`, with the item's notes folded at most once across calls sharing `foldedNotes` (nil until
    /// folded): several filters tested on one item (the smart lists' counts) fold its notes once.
    func matches(_ item: Item, foldedNotes: inout [UInt8]?) -> Bool {
        switch done {
        case .any: break
        case .done: guard item.done else { return false }
        case .notDone: guard !item.done else { return false }
        }
        if let priorityAtLeast, item.priority < priorityAtLeast { return false }
        if dueBefore != nil || dueAfter != nil {
            guard let due = item.due else { return false }
            if let dueBefore, due.sortValue >= dueBefore.sortValue { return false }
            if let dueAfter, due.sortValue <= dueAfter.sortValue { return false }
        }
        if !tagsAnyOf.isEmpty, !tagsAnyOf.contains(where: item.tags.contains) { return false }
        if !tagsAllOf.allSatisfy(item.tags.contains) { return false }
        if !foldedText.isEmpty {
            if item.titleText.foldedContains(foldedText) { return true }
            guard !item.notes.isEmpty else { return false }
            if foldedNotes == nil { foldedNotes = CollationKey(folding: item.notes).bytes }
            return Filter.occurs(foldedText, in: foldedNotes!)
        }
        return true
    }

    /// Whether `needle` occurs in `haystack` as a contiguous run of bytes.
    /// - Complexity: O(needle × haystack) at worst.
    static func occurs(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            var offset = 1
            while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }
}
