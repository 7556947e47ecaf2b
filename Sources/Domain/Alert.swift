// Alert: when an item reminds its user (at an instant, or minutes from its due), and the instant it fires.

/// One alert of an item: iCalendar's VALARM trigger, absolute or relative to the end (the due).
public enum Alert: Hashable, Sendable {
    /// Fires at this instant, whatever the item's due.
    case at(Timestamp)
    /// Fires this many minutes after the due (negative: before it). For a due instant, that long after it;
    /// for a due day, when the wall clock in the zone reads that long after the day's local midnight (`540` is
    /// "on the day at 9:00", `-360` "the day before at 18:00"), so a daylight saving change does not shift it.
    /// Without a due it never fires.
    case offset(minutes: Int)

    /// The most minutes an offset may lie from the due, either way: 366 days.
    public static let maximumOffsetMinutes = 366 * 1440

    /// The instant this alert fires for an item due `due`, in `zone` (used only for a due day); nil for a
    /// relative alert on an item without a due.
    /// - Complexity: O(1).
    public func fireInstant(due: Due?, zone: any AlertZone) -> Timestamp? {
        switch (self, due) {
        case (.at(let instant), _):
            return instant
        case (.offset, nil):
            return nil
        case (.offset(let minutes), .dateTime(let instant, _)?):
            return Timestamp(milliseconds: instant.milliseconds + Int64(minutes) * 60_000)
        case (.offset(let minutes), .date(let date)?):
            return zone.instant(atLocal: date.daysSinceEpoch * 86_400_000 + Int64(minutes) * 60_000)
        }
    }
}

/// A time zone's offsets from UTC over time, as far as alerts need them: the zone of the process that fires.
public protocol AlertZone: Sendable {
    /// The zone's offset from UTC, in seconds, at `instant` (east of Greenwich is positive).
    func offsetSeconds(at instant: Timestamp) -> Int
}

extension AlertZone {
    /// The instant at which the wall clock reads `local` (milliseconds since 1970-01-01T00:00 local). A reading
    /// the clocks show twice (they go back) is its first instant; a reading they skip (a gap) is that long after
    /// the gap's start (2:30 on a night the clocks go from 2:00 to 3:00 is 3:30), as `ClientClock` reads dues.
    /// - Complexity: O(1) (four offset lookups).
    public func instant(atLocal local: Int64) -> Timestamp {
        let before = offsetSeconds(at: Timestamp(milliseconds: local - 86_400_000))
        let after = offsetSeconds(at: Timestamp(milliseconds: local + 86_400_000))
        var valid: [Timestamp] = []
        for offset in [before, after] {
            let candidate = Timestamp(milliseconds: local - Int64(offset) * 1000)
            if offsetSeconds(at: candidate) == offset { valid.append(candidate) }
        }
        return valid.min() ?? Timestamp(milliseconds: local - Int64(before) * 1000)
    }
}

/// UTC: the zone alerts use until the server sets the client's.
public struct UTCAlertZone: AlertZone {
    public init() {}

    /// Always 0.
    public func offsetSeconds(at instant: Timestamp) -> Int { 0 }
}

extension Validation {
    /// The alerts checked (`alerts[i].at` within years 1 to 9999, `alerts[i].offset` within
    /// `Alert.maximumOffsetMinutes`), duplicates dropped (the first kept), at most `Limits.alertCount`.
    static func alerts(_ alerts: [Alert]) throws(DomainError) -> [Alert] {
        var result: [Alert] = []
        for (index, alert) in alerts.enumerated() {
            switch alert {
            case .at(let instant):
                guard instantInRange(instant) else {
                    throw .invalidField(field: "alerts[\(index)].at", problem: "must be between years 1 and 9999")
                }
            case .offset(let minutes):
                guard abs(minutes) <= Alert.maximumOffsetMinutes else {
                    throw .invalidField(field: "alerts[\(index)].offset",
                                        problem: "must be within \(Alert.maximumOffsetMinutes) minutes (366 days) either way")
                }
            }
            if !result.contains(alert) { result.append(alert) }
        }
        guard result.count <= Limits.alertCount else {
            throw .invalidField(field: "alerts", problem: "must hold at most \(Limits.alertCount) alerts")
        }
        return result
    }

    /// Whether an instant lies within years 1 to 9999 (what ISO 8601 texts here can say).
    static func instantInRange(_ instant: Timestamp) -> Bool {
        (-62_135_596_800_000...253_402_300_799_999).contains(instant.milliseconds)
    }
}
