// Taskwarrior's durations (libshared's `Duration` as Taskwarrior 2.6 ships it): what a `recur` value must be, in
// seconds. The calendar periods (`monthly`, `2m`, `yearly`…) are chosen by name before it (`TaskwarriorPeriod`).

extension TaskwarriorPeriod {
    /// A duration's unit and its seconds, and whether it may stand without a number (`weekly`, not `weeks`).
    private static let units: [String: (seconds: Int64, standalone: Bool)] = [
        "annual": (365 * day, true), "biannual": (730 * day, true), "bimonthly": (61 * day, true),
        "biweekly": (14 * day, true), "biyearly": (730 * day, true), "daily": (day, true), "days": (day, false),
        "day": (day, true), "d": (day, false), "fortnight": (14 * day, true), "hours": (3600, false),
        "hour": (3600, true), "hrs": (3600, false), "hr": (3600, true), "h": (3600, false), "minutes": (60, false),
        "minute": (60, true), "mins": (60, false), "min": (60, true), "monthly": (30 * day, true),
        "months": (30 * day, false), "month": (30 * day, true), "mnths": (30 * day, false),
        "mths": (30 * day, false), "mth": (30 * day, true), "mos": (30 * day, false), "mo": (30 * day, true),
        "m": (30 * day, false), "quarterly": (91 * day, true), "quarters": (91 * day, false),
        "quarter": (91 * day, true), "qrtrs": (91 * day, false), "qrtr": (91 * day, true),
        "qtrs": (91 * day, false), "qtr": (91 * day, true), "q": (91 * day, false),
        "semiannual": (183 * day, true), "sennight": (14 * day, false), "seconds": (1, false),
        "second": (1, true), "secs": (1, false), "sec": (1, true), "s": (1, false), "weekdays": (day, true),
        "weekly": (7 * day, true), "weeks": (7 * day, false), "week": (7 * day, true), "wks": (7 * day, false),
        "wk": (7 * day, true), "w": (7 * day, false), "yearly": (365 * day, true), "years": (365 * day, false),
        "year": (365 * day, true), "yrs": (365 * day, false), "yr": (365 * day, true), "y": (365 * day, false),
    ]
    private static let day: Int64 = 86_400
    /// The units that count weeks.
    private static let weekUnits: Set<String> = ["biweekly", "fortnight", "sennight", "weekly", "weeks", "week", "wks", "wk", "w"]

    /// The seconds a whole duration text stands for, or nil when it is not one: a number of seconds (0, or over
    /// 60), ISO 8601 `P1Y2M3DT4H5M6S` (a year 365 days, a month 30) or `P2W`, a unit that may stand alone
    /// (`weekly`), or a number (a fraction allowed, `d` at most 10,000) and a unit (`3 days`, `2w`, `1.5h`).
    /// Also says whether its unit is a week (`w`, `weekly`, `fortnight`, `P2W`…).
    static func durationSeconds(_ text: String) -> (seconds: Int64, inWeeks: Bool)? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        if bytes.allSatisfy(isDigit) {
            guard bytes.count <= 18, let seconds = Int64(text), seconds == 0 || seconds > 60 else { return nil }
            return (seconds, false)
        }
        if bytes[0] == UInt8(ascii: "P") {
            return designated(bytes).map { ($0, bytes.last == UInt8(ascii: "W")) }
        }
        if let unit = units[text] { return unit.standalone ? (unit.seconds, weekUnits.contains(text)) : nil }
        var index = 0
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        let numberStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > numberStart else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard let number = Double(String(decoding: bytes[0..<index], as: UTF8.self)) else { return nil }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        let name = String(decoding: bytes[index...], as: UTF8.self)
        guard let unit = units[name], !(name == "d" && number > 10_000) else { return nil }
        let seconds = number * Double(unit.seconds)
        guard seconds.magnitude < 1e15 else { return nil }
        return (Int64(seconds), weekUnits.contains(name))
    }

    /// `P` then `nY`, `nM`, `nD`, `T` with `nH`, `nM`, `nS` (each optional, in that order), or `P` `nW`.
    private static func designated(_ bytes: [UInt8]) -> Int64? {
        var index = 1
        func part(_ designator: Character) -> Int64? {
            var end = index
            while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            guard end > index, end < bytes.count, end - index <= 9,
                  bytes[end] == UInt8(ascii: designator.unicodeScalars.first!) else { return nil }
            let value = Int64(String(decoding: bytes[index..<end], as: UTF8.self))
            index = end + 1
            return value
        }
        if let weeks = part("W") { return index == bytes.count ? weeks * 7 * day : nil }
        var seconds: Int64 = 0
        for (designator, unit) in [("Y", 365 * day), ("M", 30 * day), ("D", day)] as [(Character, Int64)] {
            if let value = part(designator) { seconds += value * unit }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "T") {
            index += 1
            for (designator, unit) in [("H", 3600), ("M", 60), ("S", 1)] as [(Character, Int64)] {
                if let value = part(designator) { seconds += value * unit }
            }
        }
        return index == bytes.count && index >= 3 ? seconds : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}
