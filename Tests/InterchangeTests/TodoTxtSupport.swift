// What the todo.txt and backup tests share: a fixed-offset zone, options, a reading with line numbers cleared,
// and the random draws of documents.

import Domain
import Interchange
import TestSupport

/// A zone at a fixed offset from UTC (Berlin's winter time by default).
struct TodoTxtTestZone: ZoneOffsets, Sendable {
    /// The offset, in seconds.
    var seconds = 3600

    func offsetSeconds(at instant: Timestamp) -> Int { seconds }
}

/// A zone database that knows no zone (todo.txt and the backup name none).
struct TodoTxtNoZones: ZoneDatabase {
    func zone(named name: String) -> (any ZoneOffsets & Sendable)? { nil }
}

/// Options to read `todo.txt` in the test zone.
func todoTxtReadOptions(file: String = "todo.txt", skipInvalid: Bool = false) -> ReadOptions {
    ReadOptions(fileName: file, localZone: TodoTxtTestZone(), zones: TodoTxtNoZones(), skipInvalid: skipInvalid)
}

/// Options to write in the test zone, on 2026-11-26.
let todoTxtWriteOptions = WriteOptions(localZone: TodoTxtTestZone(), localZoneName: "Europe/Berlin",
                                       now: Timestamp(milliseconds: 1_795_000_000_000))

/// The document with every task's line number cleared (the only field a file's place gives, not its text).
func withoutLines(_ document: ExchangeDocument) -> ExchangeDocument {
    var result = document
    for index in result.tasks.indices { result.tasks[index].line = 0 }
    return result
}

/// The instant of local midnight of a day in the test zone.
func todoTxtMidnight(_ text: String) -> Timestamp {
    guard case .date(let date) = try! Due(parsing: text) else { preconditionFailure(text) }
    return Timestamp(milliseconds: date.daysSinceEpoch * 86_400_000 - Int64(TodoTxtTestZone().seconds) * 1000)
}

extension SplitMix64 {
    /// A day between 2000 and 2040.
    mutating func exchangeDay() -> CalendarDate {
        CalendarDate(daysSinceEpoch: Int64(int(in: 10_957...25_567)))
    }

    /// A text of 1 to `words` words from `vocabulary`, one space apart.
    mutating func exchangeWords(_ vocabulary: [String], words: Int) -> String {
        (0..<int(in: 1...words)).map { _ in pick(vocabulary) }.joined(separator: " ")
    }
}
