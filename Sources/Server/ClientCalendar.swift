/// The client's calendar: its time zone, and what "today" is in it at a given instant.

import Domain
import Foundation
import Wire

/// Turns instants into the client's `Today` (its local date and where its next days start),
/// with Foundation's time zone rules, so daylight saving changes give uneven days.
public struct ClientCalendar: Sendable {
    /// The client's time zone (from `initialize`, else the server's local zone).
    public let timeZone: TimeZone
    private let calendar: Calendar

    /// The calendar of `timeZone`.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The client's day at `now`.
    func today(at now: Timestamp) -> Today {
        let instant = Date(timeIntervalSince1970: Double(now.milliseconds) / 1000)
        let components = calendar.dateComponents([.year, .month, .day], from: instant)
        let start = calendar.startOfDay(for: instant)
        var dayStarts: [Timestamp] = []
        for offset in 0...8 {
            let day = calendar.date(byAdding: .day, value: offset, to: start) ?? start.addingTimeInterval(Double(offset) * 86_400)
            let dayStart = calendar.startOfDay(for: day)
            dayStarts.append(Timestamp(milliseconds: Int64((dayStart.timeIntervalSince1970 * 1000).rounded())))
        }
        let date = CalendarDate(year: components.year ?? 1970, month: components.month ?? 1, day: components.day ?? 1)
            ?? Today.epoch.date
        return Today(now: now, date: date, dayStarts: dayStarts)
    }
}

/// A clock a test moves by hand (`taskls serve --clock`, `debug/setClock`): time stands still
/// until it is told otherwise, so midnight can be crossed on demand.
public final class ManualClock: Sendable {
    private let current: Locked<Timestamp>

    /// A clock standing still at `start`.
    public init(_ start: Timestamp) { current = Locked(start) }

    /// The instant the clock shows.
    public var now: Timestamp { current.withLock { $0 } }

    /// Sets the instant the clock shows.
    func set(_ instant: Timestamp) { current.withLock { $0 = instant } }
}

extension ClientCalendar {
    /// The wall-clock reading of `due` in the client's zone, `YYYY-MM-DDThh:mm`, when it is an instant (nil for a
    /// day or none): what `dueLocal` says, so a client shows a due time without a time zone database.
    /// - Complexity: O(1): one offset lookup in the zone's rules, then arithmetic.
    func localReading(of due: Due?) -> String? {
        guard case .dateTime(let instant, _)? = due else { return nil }
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
        let local = instant.milliseconds + Int64(offset) * 1000
        let day = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
        let minutes = Int((local - day * 86_400_000) / 60_000)
        return CalendarDate(daysSinceEpoch: day).iso8601 + "T" + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60)
    }
}

/// `7` as `07`.
private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
