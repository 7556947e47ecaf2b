// ExchangeFormat: what every file format taskls reads and writes provides, and what a reader or writer is given.
// Pure: text in, text out; the time zones are passed in (`ZoneDatabase`), nothing here touches a file.

import Domain

/// A file format taskls imports and exports: Taskwarrior JSON, todo.txt, iCalendar, the backup JSON.
public enum ExchangeFormatName: String, CaseIterable, Sendable {
    /// What `task export` writes and `task import` reads.
    case taskwarrior
    /// The todo.txt format: one task per line.
    case todotxt
    /// iCalendar (RFC 5545) `VTODO`s.
    case ics
    /// taskls's own lossless backup.
    case json
}

/// Time zones by name (IANA `Europe/Berlin`), as the server or the command line finds them on the machine.
public protocol ZoneDatabase: Sendable {
    /// The zone with this name, or nil when there is none.
    func zone(named name: String) -> (any ZoneOffsets & Sendable)?
}

/// What a reader is given besides the text.
public struct ReadOptions: Sendable {
    /// The file's name as the user gave it, for messages (`-` for text without one).
    public var fileName: String
    /// The user's time zone: where a format's bare date-time or a midnight instant is read (Taskwarrior writes a
    /// due day as the instant of its local midnight).
    public var localZone: any ZoneOffsets & Sendable
    /// The zones a file names (iCalendar's `TZID`).
    public var zones: any ZoneDatabase
    /// Skip invalid tasks (each reported) instead of refusing the whole file.
    public var skipInvalid: Bool
    /// Keep a task's parent uid when no task of the file has it (iCalendar's `RELATED-TO`). Off for a file, where such
    /// a link is kept as an extra and the task comes in at the top level; on for sync, where every calendar object
    /// holds one task and its parent is another object.
    public var keepsParentsOutside: Bool

    /// Makes the options.
    public init(fileName: String, localZone: any ZoneOffsets & Sendable, zones: any ZoneDatabase,
                skipInvalid: Bool = false, keepsParentsOutside: Bool = false) {
        self.fileName = fileName
        self.localZone = localZone
        self.zones = zones
        self.skipInvalid = skipInvalid
        self.keepsParentsOutside = keepsParentsOutside
    }
}

/// What a writer is given besides the document.
public struct WriteOptions: Sendable {
    /// The user's time zone: where a due day becomes an instant for a format that has only instants.
    public var localZone: any ZoneOffsets & Sendable
    /// The zone's name (`Europe/Berlin`), for formats that name it (iCalendar's `TZID`); nil: write UTC.
    public var localZoneName: String?
    /// When the file is written (iCalendar's `DTSTAMP`).
    public var now: Timestamp

    /// Makes the options.
    public init(localZone: any ZoneOffsets & Sendable, localZoneName: String?, now: Timestamp) {
        self.localZone = localZone
        self.localZoneName = localZoneName
        self.now = now
    }
}

/// A file read: its lists and tasks, the tasks skipped (with `skipInvalid`) and what taskls could not keep.
public struct ExchangeReading: Sendable {
    /// What the file holds.
    public var document: ExchangeDocument
    /// The tasks left out because they were invalid (only with `skipInvalid`), each with its reason.
    public var skipped: [ExchangeProblem]
    /// What the import loses (kept nowhere, not even as extras).
    public var losses: [ExchangeLoss]

    /// Makes a reading.
    public init(document: ExchangeDocument, skipped: [ExchangeProblem] = [], losses: [ExchangeLoss] = []) {
        self.document = document
        self.skipped = skipped
        self.losses = losses
    }
}

/// A file written: its text and what the format could not carry.
public struct ExchangeWriting: Sendable {
    /// The file's text.
    public var text: String
    /// What the export loses.
    public var losses: [ExchangeLoss]

    /// Makes a writing.
    public init(text: String, losses: [ExchangeLoss] = []) {
        self.text = text
        self.losses = losses
    }
}

/// A file refused: every problem found (at most `ExchangeFailure.limit`), each with its file, line and field.
public struct ExchangeFailure: Error, Sendable, CustomStringConvertible {
    /// The most problems a failure lists; the count beyond it is in `more`.
    public static let limit = 100
    /// The problems, in the file's order.
    public var problems: [ExchangeProblem]
    /// How many more there were.
    public var more: Int

    /// Makes a failure.
    public init(problems: [ExchangeProblem], more: Int = 0) {
        self.problems = problems
        self.more = more
    }

    /// One problem per line, then `and N more`.
    public var description: String {
        (problems.map(\.description) + (more > 0 ? ["and \(more) more"] : [])).joined(separator: "\n")
    }
}

/// A file format: a reader and a writer.
public protocol ExchangeFormat {
    /// Reads a whole file. Refuses it (every problem, up to the limit) when any task is invalid, unless
    /// `options.skipInvalid`, which leaves those tasks out and reports each in `skipped`; a file whose structure
    /// is broken (not JSON, an unclosed `BEGIN:VCALENDAR`) is refused either way.
    static func read(_ text: String, options: ReadOptions) throws(ExchangeFailure) -> ExchangeReading
    /// Writes a document. Every task in it has a `uid`.
    static func write(_ document: ExchangeDocument, options: WriteOptions) -> ExchangeWriting
}
