// ICalendarFormat: iCalendar (RFC 5545) VTODOs read into and written from the exchange model: one VCALENDAR per list,
// dues in their zones (VTIMEZONE), alarms as alerts, everything else kept as `ical:` extras (protocol.md,
// "Import and export — iCalendar", is the field-by-field mapping).

import Domain

/// iCalendar (RFC 5545): what Apple Reminders, Nextcloud Tasks, Thunderbird and Fastmail exchange.
///
/// Reading takes every `VCALENDAR` of a stream as a list (named by `X-WR-CALNAME`, else RFC 7986 `NAME`; a calendar
/// without a name gives tasks of the import's default list) and every `VTODO` in it as a task; a property or
/// component taskls has no field for is kept as an extra `ical:NAME` whose value is the property's parameters and
/// value as unfolded text (`;X-PARAM=1:value`), or a component's content lines (`BEGIN:VALARM` … `END:VALARM`,
/// joined by line feeds). Writing gives one `VCALENDAR` per list with its tasks in order, CRLF line ends, lines
/// folded at 75 octets, and the extras written back where they came from.
public enum ICalendarFormat: ExchangeFormat {
    /// Reads an iCalendar stream (one or more `VCALENDAR`s).
    ///
    /// A broken structure (a first line that is not `BEGIN:VCALENDAR`, a `BEGIN` without its `END`, a property
    /// outside every calendar) refuses the file whatever `options.skipInvalid` says; an invalid task (no title, an
    /// impossible date, an unknown `TZID`, a duplicate `UID`, a cycle of `RELATED-TO` parents) refuses it unless
    /// `skipInvalid`, which leaves the task out and reports it.
    /// - Complexity: O(length of `text`), plus the time-zone lookups of its dates.
    public static func read(_ text: String, options: ReadOptions) throws(ExchangeFailure) -> ExchangeReading {
        try CalendarReader(options: options).read(text)
    }

    /// The text of an iCalendar file's bytes as UTF-8, for `read`. A writer that folds a line inside a UTF-8
    /// sequence (RFC 5545 says it should not, some do) leaves invalid bytes on both sides of the fold, which decoding
    /// would replace; here the rest of the sequence is moved before the fold first, so unfolding gives it back whole
    /// and the lines keep their numbers.
    /// - Complexity: O(bytes).
    public static func text(decoding bytes: [UInt8]) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let lineFeed = byte == 0x0A ? index : byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A
                ? index + 1 : nil
            if let lineFeed, lineFeed + 1 < bytes.count, bytes[lineFeed + 1] == 0x20 || bytes[lineFeed + 1] == 0x09 {
                var end = lineFeed + 2
                while end < bytes.count, (0x80...0xBF).contains(bytes[end]) { end += 1 }
                if end > lineFeed + 2 {
                    result += bytes[(lineFeed + 2)..<end]
                    result += bytes[index...(lineFeed + 1)]
                    index = end
                    continue
                }
            }
            result.append(byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Writes a document: one `VCALENDAR` per list (the lists in order, then any other list a task names), each
    /// task's `VTODO` in document order, with the `VTIMEZONE`s its dues and extras use.
    /// - Complexity: O(size of the document), plus a scan of the local zone's transitions over the years its dues
    ///   span (one offset lookup a day).
    public static func write(_ document: ExchangeDocument, options: WriteOptions) -> ExchangeWriting {
        CalendarWriter(options: options).write(document)
    }
}
