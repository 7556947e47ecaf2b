// Today: the client's day (computed by the server, which knows the time zone) and each due's status in it.

/// The client's day: the current instant, the local date, and the instants at which the next local days start.
///
/// The server computes it with the client's time zone and hands it in; the domain never reads a clock
/// or a time zone database. Uneven days (a daylight saving change) are just uneven `dayStarts`.
public struct Today: Hashable, Sendable {
    /// The current instant.
    public var now: Timestamp
    /// The client's local date at `now`.
    public var date: CalendarDate
    /// The instants at which the local dates `date + 0` through `date + 8` start: 9 entries, ascending,
    /// with `dayStarts[0] <= now < dayStarts[1]`.
    public var dayStarts: [Timestamp]

    /// Makes a day. Precondition: `dayStarts` has 9 ascending entries.
    public init(now: Timestamp, date: CalendarDate, dayStarts: [Timestamp]) {
        precondition(dayStarts.count == 9, "Today needs the starts of 9 days")
        self.now = now
        self.date = date
        self.dayStarts = dayStarts
    }

    /// 1970-01-01 in UTC at its first instant: the engine's day until the server sets the real one.
    public static let epoch = Today(now: Timestamp(milliseconds: 0), date: CalendarDate(daysSinceEpoch: 0),
                                    dayStarts: (0...8).map { Timestamp(milliseconds: Int64($0) * 86_400_000) })

    /// The status of an item due `due` on this day.
    /// - Complexity: O(1).
    func status(of due: Due?) -> DueStatus {
        switch due {
        case nil:
            return DueStatus(bucket: .noDate, isToday: false)
        case .date(let date)?:
            let offset = date.daysSinceEpoch - self.date.daysSinceEpoch
            let bucket: DueBucket = offset < 0 ? .overdue : offset == 0 ? .today : offset == 1 ? .tomorrow
                : offset <= 7 ? .nextSevenDays : .later
            return DueStatus(bucket: bucket, isToday: offset == 0)
        case .dateTime(let instant, _)?:
            let bucket: DueBucket = instant < now ? .overdue : instant < dayStarts[1] ? .today
                : instant < dayStarts[2] ? .tomorrow : instant < dayStarts[8] ? .nextSevenDays : .later
            return DueStatus(bucket: bucket, isToday: dayStarts[0] <= instant && instant < dayStarts[1])
        }
    }

    /// The due-key ranges outside which every due has the same status on this day and on `other`:
    /// between each pair of corresponding boundaries (dates compared to `date + 0, 1, 2, 8`; instants to
    /// `now` and to the day starts), merged and ascending.
    /// - Complexity: O(1).
    func changedRanges(to other: Today) -> [DueRange] {
        var ranges: [DueRange] = []
        for offset: Int64 in [0, 1, 2, 8] {
            let (old, new) = (date.daysSinceEpoch + offset, other.date.daysSinceEpoch + offset)
            if old != new { ranges.append(DueRange(kind: .date, min(old, new), max(old, new))) }
        }
        let boundaries = [(now, other.now)] + zip(dayStarts, other.dayStarts).map { ($0, $1) }
        for (old, new) in boundaries where old != new {
            ranges.append(DueRange(kind: .dateTime, min(old, new).milliseconds, max(old, new).milliseconds))
        }
        return DueRange.merged(ranges)
    }
}

/// Where a due falls relative to the client's day: the section it belongs to in a due-bucket grouping.
public enum DueBucket: Int, CaseIterable, Comparable, Sendable {
    /// A day before today, or an instant before now.
    case overdue
    /// Today (and, for an instant, not yet past).
    case today
    /// Tomorrow.
    case tomorrow
    /// The 6 days after tomorrow.
    case nextSevenDays
    /// Any later day.
    case later
    /// No due date.
    case noDate

    /// Orders buckets as their sections appear.
    public static func < (lhs: DueBucket, rhs: DueBucket) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A due's status on one day: its bucket, and whether it falls on that day (an instant earlier today is
/// both overdue and today).
struct DueStatus: Hashable, Sendable {
    var bucket: DueBucket
    var isToday: Bool
}

/// An item's place in the global index of dues: days before instants, then by value, then by id.
struct DueKey: Hashable, Comparable, Sendable {
    enum Kind: UInt8, Hashable, Sendable { case date, dateTime }
    var kind: Kind
    /// Days since the epoch for a date, milliseconds since the epoch for an instant.
    var value: Int64
    var item: ItemID

    init(kind: Kind, value: Int64, item: ItemID) {
        self.kind = kind
        self.value = value
        self.item = item
    }

    /// The key of an item with a due; nil without one.
    init?(_ item: Item) {
        switch item.due {
        case nil: return nil
        case .date(let date)?: self.init(kind: .date, value: date.daysSinceEpoch, item: item.id)
        case .dateTime(let instant, _)?: self.init(kind: .dateTime, value: instant.milliseconds, item: item.id)
        }
    }

    static func < (lhs: DueKey, rhs: DueKey) -> Bool {
        (lhs.kind.rawValue, lhs.value, lhs.item) < (rhs.kind.rawValue, rhs.value, rhs.item)
    }
}

/// A half-open range `[lower, upper)` of due keys.
struct DueRange: Hashable, Sendable {
    var lower: DueKey
    var upper: DueKey

    /// All keys of `kind` with values in `[from, to)`.
    init(kind: DueKey.Kind, _ from: Int64, _ to: Int64) {
        lower = DueKey(kind: kind, value: from, item: ItemID(0))
        upper = DueKey(kind: kind, value: to, item: ItemID(0))
    }

    func contains(_ key: DueKey) -> Bool { lower <= key && key < upper }

    /// The union of `ranges` as disjoint ascending ranges.
    static func merged(_ ranges: [DueRange]) -> [DueRange] {
        var result: [DueRange] = []
        for range in ranges.sorted(by: { $0.lower < $1.lower }) {
            if let last = result.last, range.lower <= last.upper {
                result[result.count - 1].upper = max(last.upper, range.upper)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
