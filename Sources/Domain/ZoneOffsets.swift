// ZoneOffsets: a time zone as the domain sees it (its UTC offset at each instant), and the wall-clock
// arithmetic on top of it: an instant's local reading, and the instant a local reading names (gaps and overlaps).

/// A time zone's offsets from UTC over time. The domain reads no time zone database: the caller (the server,
/// a test) passes one in.
public protocol ZoneOffsets {
    /// The zone's offset from UTC, in seconds, at `instant` (east of Greenwich is positive).
    func offsetSeconds(at instant: Timestamp) -> Int
}

extension ZoneOffsets {
    /// What the zone's wall clock reads at `instant`: the local date and the milliseconds since its midnight.
    /// - Complexity: O(1) plus one offset lookup.
    public func localReading(of instant: Timestamp) -> (date: CalendarDate, millisecond: Int64) {
        let local = instant.milliseconds + Int64(offsetSeconds(at: instant)) * 1000
        let (days, millisecond) = local.floorDivided(by: 86_400_000)
        return (CalendarDate(daysSinceEpoch: days), millisecond)
    }

    /// The instant at which the zone's wall clock reads `millisecond` (since midnight) on `date`, written with
    /// the zone's offset then; `skipped` when the clocks never show that reading (a daylight saving gap).
    ///
    /// A reading the clocks show twice (when they go back) is its first instant. A reading in a gap is the
    /// instant that is that long after the gap's start, shown in the offset after it (2:30 on a night the clocks
    /// go from 2:00 to 3:00 is 3:30). Offsets are sampled a day either side of the reading, so a zone may change
    /// its offset at most once within a day of it.
    /// - Complexity: O(1) plus at most six offset lookups.
    public func dateTime(on date: CalendarDate, at millisecond: Int64) -> (due: Due, skipped: Bool) {
        let local = date.daysSinceEpoch * 86_400_000 + millisecond
        let before = offsetSeconds(at: Timestamp(milliseconds: local - 86_400_000))
        let after = offsetSeconds(at: Timestamp(milliseconds: local + 86_400_000))
        var valid: [Timestamp] = []
        for offset in [before, after] {
            let candidate = Timestamp(milliseconds: local - Int64(offset) * 1000)
            if offsetSeconds(at: candidate) == offset { valid.append(candidate) }
        }
        if let first = valid.min() {
            return (.dateTime(first, offsetSeconds: offsetSeconds(at: first)), false)
        }
        let shifted = Timestamp(milliseconds: local - Int64(before) * 1000)
        return (.dateTime(shifted, offsetSeconds: offsetSeconds(at: shifted)), true)
    }
}
