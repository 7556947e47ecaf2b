// Limits: the documented bounds every field and request is validated against.

/// The bounds the domain enforces; a value outside them is refused with `DomainError.invalidField`.
public enum Limits {
    /// Longest item title, in characters (grapheme clusters).
    public static let titleCharacters = 1_000
    /// Longest item notes, in characters.
    public static let notesCharacters = 100_000
    /// Longest list name, in characters.
    public static let listNameCharacters = 200
    /// Most tags on one item.
    public static let tagCount = 50
    /// Longest tag, in characters, after trimming.
    public static let tagCharacters = 100
    /// Longest list color, in characters.
    public static let colorCharacters = 64
    /// Longest list icon name, in characters.
    public static let iconCharacters = 64
    /// Most rows a view's window may span (`end - start`).
    public static let windowRows = 1_000
    /// Deepest a subtask may sit: a top-level item has depth 0, its subtasks 1, and so on (16 levels).
    public static let maxDepth = 15
    /// Most ids one mutation may name.
    public static let idsPerMutation = 100_000
    /// Most alerts on one item.
    public static let alertCount = 20
    /// Longest `Item.uid` (an imported item's identity in its file), in characters.
    public static let uidCharacters = 255
    /// Most extras (`Item.extras`, another tool's fields kept for export) on one item.
    public static let extraCount = 500
    /// Longest extra's key (`format:name`), in characters; its value may be as long as notes
    /// (`notesCharacters`).
    public static let extraKeyCharacters = 200
}
