// Taskwarrior's dates: instants in UTC written `20261124T093000Z` (what `task export` writes; `task import` also
// takes `2026-11-24T09:30:00Z`), and how an instant becomes a taskls due in the user's zone and back.

import Domain

/// Reading and writing Taskwarrior's date text, and the due mapping (a local midnight is a day).
enum TaskwarriorDate {
    /// The instant `text` names: `YYYYMMDDTHHMMSSZ`, or `YYYY-MM-DDTHH:MM:SSZ`; else why not, in words
    /// (`is not a Taskwarrior date (YYYYMMDDTHHMMSSZ)`, `is not a date (2026-02-30 does not exist)`).
    /// - Complexity: O(length of `text`), no allocation when it is valid.
    static func instant(_ text: String) -> Result<Timestamp, DateProblem> {
        var text = text
        return text.withUTF8 { bytes in
            // Where the digits of year, month, day, hour, minute and second start, and the separators, per form.
            let basic = bytes.count == 16
            guard basic || bytes.count == 20 else { return .failure(.shape) }
            let starts = basic ? (0, 4, 6, 9, 11, 13) : (0, 5, 8, 11, 14, 17)
            for (index, byte) in basic ? basicSeparators : extendedSeparators where bytes[index] != byte {
                return .failure(.shape)
            }
            func number(_ from: Int, _ count: Int) -> Int? {
                var value = 0
                for index in from..<(from + count) {
                    let byte = bytes[index]
                    guard (48...57).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - 48)
                }
                return value
            }
            guard let year = number(starts.0, 4), let month = number(starts.1, 2), let day = number(starts.2, 2),
                  let hour = number(starts.3, 2), let minute = number(starts.4, 2), let second = number(starts.5, 2)
            else { return .failure(.shape) }
            guard let date = CalendarDate(year: year, month: month, day: day) else {
                return .failure(.noSuchDay(pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)))
            }
            guard hour < 24, minute < 60, second < 60 else {
                return .failure(.noSuchTime(pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)))
            }
            let seconds = date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            return .success(Timestamp(milliseconds: seconds * 1000))
        }
    }

    private static let basicSeparators: [(Int, UInt8)] = [(8, UInt8(ascii: "T")), (15, UInt8(ascii: "Z"))]
    private static let extendedSeparators: [(Int, UInt8)] = [
        (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
        (16, UInt8(ascii: ":")), (19, UInt8(ascii: "Z")),
    ]

    /// Why a text is not a Taskwarrior date.
    enum DateProblem: Error, Equatable {
        /// Not one of the two forms.
        case shape
        /// A day that does not exist (`2026-02-30`).
        case noSuchDay(String)
        /// A time of day out of range (`25:00:00`).
        case noSuchTime(String)

        /// The words after the quoted value.
        var words: String {
            switch self {
            case .shape: "is not a Taskwarrior date (YYYYMMDDTHHMMSSZ)"
            case .noSuchDay(let day): "is not a date (\(day) does not exist)"
            case .noSuchTime(let time): "is not a date (\(time) is not a time of day)"
            }
        }
    }

    /// Appends `instant` as `YYYYMMDDTHHMMSSZ` (its milliseconds dropped: Taskwarrior counts whole seconds).
    /// - Complexity: O(1).
    static func write(_ instant: Timestamp, into buffer: inout [UInt8]) {
        let (days, millisecond) = floorDivision(instant.milliseconds, 86_400_000)
        let date = CalendarDate(daysSinceEpoch: days)
        let second = Int(millisecond / 1000)
        appendDigits(date.year, count: 4, to: &buffer)
        appendDigits(date.month, count: 2, to: &buffer)
        appendDigits(date.day, count: 2, to: &buffer)
        buffer.append(UInt8(ascii: "T"))
        appendDigits(second / 3600, count: 2, to: &buffer)
        appendDigits(second / 60 % 60, count: 2, to: &buffer)
        appendDigits(second % 60, count: 2, to: &buffer)
        buffer.append(UInt8(ascii: "Z"))
    }

    /// `instant` as `YYYYMMDDTHHMMSSZ`.
    static func text(_ instant: Timestamp) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16)
        write(instant, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The due an instant reads as in `zone`: the day itself when it is that day's local midnight (Taskwarrior
    /// writes `due:2026-11-24` so), else the instant written with the zone's offset then.
    /// - Complexity: O(1), one offset lookup.
    static func due(_ instant: Timestamp, zone: some ZoneOffsets) -> Due {
        let offset = zone.offsetSeconds(at: instant)
        let (days, millisecond) = floorDivision(instant.milliseconds + Int64(offset) * 1000, 86_400_000)
        if millisecond == 0 { return .date(CalendarDate(daysSinceEpoch: days)) }
        return .dateTime(instant, offsetSeconds: offset)
    }

    /// The instant Taskwarrior keeps for `due`: a day's local midnight in `zone` (the first instant after a gap
    /// when the clocks skip midnight), an instant as it is.
    static func instant(of due: Due, zone: some ZoneOffsets) -> Timestamp {
        switch due {
        case .date(let date):
            guard case .dateTime(let instant, _) = zone.dateTime(on: date, at: 0).due else { return Timestamp(milliseconds: 0) }
            return instant
        case .dateTime(let instant, _):
            return instant
        }
    }

    /// Floor division and the matching non-negative remainder.
    static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ number: Int, _ count: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, count - digits.count)) + digits
    }

    private static func appendDigits(_ number: Int, count: Int, to buffer: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = number
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}
