// TodoTxtFormat: the todo.txt format (one task per line) as an `ExchangeFormat`: the entry points of its reader
// and writer. protocol.md, "Import and export — todo.txt", gives the mapping field by field.

import Domain

/// todo.txt (github.com/todotxt/todo.txt): one task per line, `x` done with its completion date, `(A)` priority,
/// the creation date, `+project` (the task's list), `@context` (its tags), and `key:value` fields: the de facto
/// `due:`, `t:`, `rec:`, `h:` of Simpletask and topydo, `pri:` on done tasks, and taskls's own `uid:`, `parent:`
/// and `rrule:`.
///
/// Reading: blank lines, trailing white space, CR LF and a byte order mark are accepted; every other `key:value`
/// is kept as an extra (`todotxt:KEY`), and so are the projects after the first; a line without `uid:` gets
/// `todotxt-` and the FNV-1a hash of its text without what completing it changes, so importing the file again
/// updates instead of duplicating. Writing: one line per task in the document's order (parents before their
/// subtasks), always with `+list`, `uid:`, and `parent:` for a subtask.
public enum TodoTxtFormat: ExchangeFormat {
    /// Reads a todo.txt file. Refuses it, naming each line and field, for a date that does not exist, a value
    /// that does not read (`due:`, `rec:`, `rrule:`, `pri:`, `uid:`, `parent:`), a key given twice, a line
    /// without a title, a uid given twice, a `parent:` that names no task or makes a cycle.
    /// - Complexity: O(length of the text).
    public static func read(_ text: String, options: ReadOptions) throws(ExchangeFailure) -> ExchangeReading {
        try TodoTxtReader(options: options).read(text)
    }

    /// Writes a document as todo.txt, one LF-terminated line per task, counting what todo.txt cannot say
    /// (notes, alerts, due times, times of day, history, other formats' fields, titles that would read back
    /// otherwise).
    /// - Complexity: O(size of the document).
    public static func write(_ document: ExchangeDocument, options: WriteOptions) -> ExchangeWriting {
        TodoTxtWriter(options: options).write(document)
    }
}
