// What the iCalendar tests share: real zones from Foundation's database, reading and writing with them, CRLF text.

import Domain
import Foundation
import Interchange
import Testing

/// A real zone from Foundation's database (the Interchange module reads none; the caller passes it in).
struct ICalendarTestZone: ZoneOffsets, Sendable {
    let zone: TimeZone

    init(_ identifier: String) { zone = TimeZone(identifier: identifier)! }

    func offsetSeconds(at instant: Timestamp) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

/// Foundation's zones by IANA name, counting the look-ups.
final class ICalendarTestZones: ZoneDatabase, @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []

    /// The names asked for, in order.
    var asked: [String] { lock.withLock { names } }

    func zone(named name: String) -> (any ZoneOffsets & Sendable)? {
        lock.withLock { names.append(name) }
        return TimeZone(identifier: name).map { ICalendarTestZone($0.identifier) }
    }
}

/// The zone the tests read and write in unless they say otherwise.
let icsLocalZoneName = "Europe/Berlin"

/// Read options with Berlin (or `zone`) as the local zone.
func icsReadOptions(zone: String = icsLocalZoneName, skipInvalid: Bool = false,
                    zones: ICalendarTestZones = ICalendarTestZones()) -> ReadOptions {
    ReadOptions(fileName: "tasks.ics", localZone: ICalendarTestZone(zone), zones: zones, skipInvalid: skipInvalid)
}

/// Write options with Berlin (or `zone`, named when `named`) as the local zone, written on 2026-11-20 at 08:00 UTC.
func icsWriteOptions(zone: String = icsLocalZoneName, named: Bool = true) -> WriteOptions {
    WriteOptions(localZone: ICalendarTestZone(zone), localZoneName: named ? zone : nil, now: icsInstant("2026-11-20T08:00:00Z"))
}

/// Lines joined with CRLF, each ended by one (what a file holds).
func icsText(_ lines: [String]) -> String {
    lines.map { $0 + "\r\n" }.joined()
}

/// A calendar of these lines around the given component lines.
func icsCalendar(_ body: [String], header: [String] = []) -> String {
    icsText(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//test//EN"] + header + body + ["END:VCALENDAR"])
}

/// A VTODO of these properties.
func icsTodo(_ properties: [String]) -> [String] {
    ["BEGIN:VTODO"] + properties + ["END:VTODO"]
}

/// Reads, expecting success.
func icsRead(_ text: String, options: ReadOptions = icsReadOptions()) throws -> ExchangeReading {
    do {
        return try ICalendarFormat.read(text, options: options)
    } catch {
        Issue.record("read failed:\n\(error)\n--- text:\n\(text)")
        throw error
    }
}

/// Reads, expecting a failure; its problems as text.
func icsProblems(_ text: String, options: ReadOptions = icsReadOptions()) -> [String] {
    do {
        let reading = try ICalendarFormat.read(text, options: options)
        Issue.record("read did not fail: \(reading.document.tasks.count) tasks")
        return []
    } catch {
        return error.problems.map(\.description) + (error.more > 0 ? ["and \(error.more) more"] : [])
    }
}

/// The instant an ISO 8601 date-time names.
func icsInstant(_ text: String) -> Timestamp {
    guard case .dateTime(let instant, _) = try! Due(parsing: text) else { fatalError("not an instant: \(text)") }
    return instant
}

/// The due an ISO 8601 text names.
func icsDue(_ text: String) -> Due { try! Due(parsing: text) }

/// A task with its line cleared (lines differ between a file and its rewrite).
func icsWithoutLine(_ task: ExchangeTask) -> ExchangeTask {
    var task = task
    task.line = 0
    return task
}
