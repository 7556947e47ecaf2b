// TaskwarriorFormat: Taskwarrior 2.6's JSON (what `task export` writes and `task import` reads) as an exchange
// format. The mapping, field by field, is protocol.md's "Import and export — Taskwarrior".

import Domain

/// Taskwarrior 2.6's JSON: a reader of what `task export` writes and a writer of what `task import` reads.
///
/// A task's `uuid` is its `uid`, `project` its list, annotations its notes; dues are instants read in
/// `localZone` (a local midnight is a day). A recurrence template and its instances are one repeating task whose
/// due is the first pending instance's. Every field taskls has no place for is kept as an extra
/// (`taskwarrior:<field>`, the JSON text of its value), so that writing a task read unchanged gives the same
/// Taskwarrior task back; the series' template and instances are kept that way too (`taskwarrior:instances`).
public enum TaskwarriorFormat: ExchangeFormat {
    /// Reads a `task export` file: a JSON array of tasks, one object, or one object per line.
    /// - Complexity: O(size of the file).
    public static func read(_ text: String, options: ReadOptions) throws(ExchangeFailure) -> ExchangeReading {
        try TaskwarriorReader.read(text, options: options)
    }

    /// Writes a document as a JSON array with one task per line, as `task export` does.
    /// - Complexity: O(size of the document).
    public static func write(_ document: ExchangeDocument, options: WriteOptions) -> ExchangeWriting {
        TaskwarriorWriter.write(document, options: options)
    }
}

/// The keys of the extras the Taskwarrior format keeps besides `taskwarrior:<field>` for a field as it was.
enum TaskwarriorKey {
    /// What every key starts with.
    static let prefix = "taskwarrior:"
    /// `null`: the task had no project (it went to the import's default list).
    static let project = "taskwarrior:project"
    /// `"waiting"`: the status the file said, where taskls says only open.
    static let status = "taskwarrior:status"
    /// A priority that is not H, M or L (a user-defined value).
    static let priority = "taskwarrior:priority"
    /// The annotations as read (an array; split over several extras when long), so their times come back.
    static let annotations = "taskwarrior:annotations"
    /// A template's own due: where its series starts (the item's due is the next occurrence).
    static let due = "taskwarrior:due"
    /// A template's `until`, kept when its period has no rule.
    static let until = "taskwarrior:until"
    /// A template's period, as written.
    static let recur = "taskwarrior:recur"
    /// A template's mask: one character per instance made (`-` pending, `+` completed, `X` deleted, `W` waiting).
    static let mask = "taskwarrior:mask"
    /// A template's description, project, priority and tags as read (an object), to tell what taskls changed.
    static let template = "taskwarrior:template"
    /// A template's instances as read (an array of task objects; split over several extras when long).
    static let instances = "taskwarrior:instances"
    /// An array extra longer than this many UTF-8 bytes is split into several with the same key (an extra's value
    /// is at most 100,000 characters).
    static let chunkBytes = 90_000
}
