// BackupFormat: taskls's own lossless backup, a JSON document of every field of the exchange model, versioned, as
// an `ExchangeFormat`. protocol.md, "Import and export — backup JSON", gives its shape member by member.

import Domain

/// The backup JSON: `{"format": "taskls-backup", "version": 1, "lists": [...], "smartLists": [...], "tasks": [...]}`
/// with every field of `ExchangeDocument`, `ExchangeList`, `ExchangeSmartList` and `ExchangeTask` (the line
/// number aside), values spelt as on the wire (dues and times in ISO 8601, filters as `view/filter` takes them,
/// ids as `l3` and `i42`). Reading is strict: an unknown member, a value of the wrong type, a date that does not
/// exist, a rule that does not read, a newer version are refused with the JSON path of the value.
/// Writing then reading gives the same document.
public enum BackupFormat: ExchangeFormat {
    /// The value of the `format` member.
    public static let formatName = "taskls-backup"
    /// The version this taskls writes, and the newest it reads.
    public static let version = 1

    /// Reads a backup. Refuses it for broken JSON, a top level that is not a backup (`format`, `version`, a
    /// member of the wrong type), and, unless `options.skipInvalid`, for any invalid list, smart list or task
    /// (each named by its JSON path and line), a uid given twice, a `parentUID` naming no task or making a cycle.
    /// - Complexity: O(length of the text).
    public static func read(_ text: String, options: ReadOptions) throws(ExchangeFailure) -> ExchangeReading {
        try BackupReader(options: options).read(text)
    }

    /// Writes a document as a backup: the top level's members on their own lines, then one line per list,
    /// smart list and task. Nothing is lost, unless two lists share a name (a task names its list by name).
    /// - Complexity: O(size of the document).
    public static func write(_ document: ExchangeDocument, options: WriteOptions) -> ExchangeWriting {
        BackupWriter.write(document)
    }
}
