/// The client's "now": the instant, its time zone's rules, and what they make of the instant (today's date and
/// the wall-clock time), so "tomorrow" and "5pm" mean what they mean to the person typing.

import Domain

/// A time zone's offsets from UTC over time (the server gives the client's zone from its time zone database),
/// with its name: `offsetSeconds(at:)` comes from the domain's `ZoneOffsets`.
public protocol TimeZoneRules: ZoneOffsets, Sendable {
    /// The zone's name, for messages (`Europe/Paris`).
    var identifier: String { get }
}

/// The client's instant now and its zone, with the local date and time they make.
public struct ClientClock: Sendable {
    /// The instant now.
    public let now: Timestamp
    /// The client's time zone.
    public let zone: any TimeZoneRules
    /// The client's date now.
    public let today: CalendarDate
    /// Milliseconds since the client's local midnight, now.
    let millisecondOfDay: Int64

    /// The clock at `now` in `zone`.
    public init(now: Timestamp, zone: any TimeZoneRules) {
        self.now = now
        self.zone = zone
        let local = now.milliseconds + Int64(zone.offsetSeconds(at: now)) * 1000
        let (days, millisecond) = local.dividedFloor(by: 86_400_000)
        today = CalendarDate(daysSinceEpoch: days)
        millisecondOfDay = millisecond
    }

    /// The instant at which the client's wall clock reads `millisecond` (since midnight) on `date`, with the
    /// zone's offset then; and, when the clocks skip that reading (a daylight saving gap), the reading they
    /// show instead.
    ///
    /// A reading the clocks show twice (when they go back) is its first instant. A reading in a gap is the
    /// instant that is that long after the gap's start, shown in the offset after it (2:30 on a night the clocks
    /// go from 2:00 to 3:00 is 3:30).
    func instant(on date: CalendarDate, at millisecond: Int64) -> (due: Due, skipped: Bool) {
        zone.dateTime(on: date, at: millisecond)
    }
}

extension Due {
    /// The wall-clock reading of a date-time in its own offset, `HH:MM`.
    var clockText: String {
        guard case .dateTime(let instant, let offset) = self else { return "" }
        let (_, millisecond) = (instant.milliseconds + Int64(offset) * 1000).dividedFloor(by: 86_400_000)
        return twoDigits(Int(millisecond / 3_600_000)) + ":" + twoDigits(Int(millisecond / 60_000 % 60))
    }
}

func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

extension Int64 {
    /// Floor division and the matching non-negative remainder.
    func dividedFloor(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
