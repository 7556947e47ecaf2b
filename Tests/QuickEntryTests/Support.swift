/// What the grammar tests share: clocks in real time zones, the lists `@name` is looked up in, and the
/// invariants every parse keeps (spans in order, covering every word, offsets right in the three units).

import Domain
import Foundation
import QuickEntry
import Testing

/// A real time zone's rules, from Foundation's database (as the server gives them).
struct ZoneRules: TimeZoneRules {
    let zone: TimeZone

    init(_ identifier: String) {
        zone = TimeZone(identifier: identifier)!
    }

    var identifier: String { zone.identifier }

    func offsetSeconds(at instant: Timestamp) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

/// The instant an ISO 8601 date-time names.
func instant(_ text: String) -> Timestamp {
    guard case .dateTime(let instant, _) = try! Due(parsing: text) else { fatalError("not an instant: \(text)") }
    return instant
}

/// The clock at `now` in `zone` (the transcripts' instant and zone by default: Wednesday 2026-11-25, 11:00 in Paris).
func clock(_ now: String = "2026-11-25T10:00:00Z", _ zone: String = "Europe/Paris") -> ClientClock {
    ClientClock(now: instant(now), zone: ZoneRules(zone))
}

/// The lists of the tables, in their order.
let tableLists: [(id: ListID, name: String)] = [
    (ListID(1), "Inbox"), (ListID(2), "Groceries"), (ListID(3), "Work stuff"), (ListID(4), "Café"),
    (ListID(5), "Home"), (ListID(6), "home"), (ListID(7), "Grocery"), (ListID(8), "Errands"), (ListID(9), "errands"),
]

let directory = ListDirectory(tableLists)

/// A due as the protocol writes it, from a parse; "none" for `cleared`, nil when absent.
func written(_ due: DueField?) -> String? {
    switch due {
    case .set(let value)?: value.iso8601
    case .cleared?: "none"
    case nil: nil
    }
}

/// Checks what every parse must be: spans in text order and disjoint, together holding every character that is
/// not white space and nothing else; each span's text is the text at its offsets, counted in UTF-16, UTF-8 and
/// scalars; each warning is about a span.
func checkSpans(_ text: String, _ spans: [ParsedSpan], _ warnings: [ParseWarning], sourceLocation: SourceLocation = #_sourceLocation) {
    let scalars = Array(text.unicodeScalars)
    var covered = [Bool](repeating: false, count: scalars.count)
    var previousEnd = -1
    let utf16 = Array(text.utf16)
    let utf8 = Array(text.utf8)
    for span in spans {
        let (start, end) = (span.range.start, span.range.end)
        #expect(start.scalars > previousEnd, "spans overlap or are out of order at \(span.text)", sourceLocation: sourceLocation)
        previousEnd = end.scalars - 1
        #expect(String(String.UnicodeScalarView(scalars[start.scalars..<end.scalars])) == span.text, sourceLocation: sourceLocation)
        #expect(String(decoding: utf16[start.utf16..<end.utf16], as: UTF16.self) == span.text, sourceLocation: sourceLocation)
        #expect(String(decoding: utf8[start.utf8..<end.utf8], as: UTF8.self) == span.text, sourceLocation: sourceLocation)
        #expect(!span.text.isEmpty && !span.text.unicodeScalars.first!.properties.isWhitespace
                && !span.text.unicodeScalars.last!.properties.isWhitespace, "span \(span.text) has white space at an end",
                sourceLocation: sourceLocation)
        for index in start.scalars..<end.scalars { covered[index] = true }
    }
    for (index, scalar) in scalars.enumerated() where !scalar.properties.isWhitespace {
        #expect(covered[index], "\(scalar) at \(index) of \(text) is in no span", sourceLocation: sourceLocation)
    }
    for warning in warnings {
        #expect(spans.contains { $0.range == warning.range && $0.text == warning.text }, "a warning on no span: \(warning.message)",
                sourceLocation: sourceLocation)
    }
}
