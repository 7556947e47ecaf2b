/// A repeat in words, the inverse of `RepeatPhrase`: the quick-entry phrase that reads back as the same rule
/// where the grammar has one (`every 2 weeks on mon, wed after done`), else a description of it.

import Domain

/// The words every pane shows for a repeat (the server sends them as `repeat.text`).
public enum RepeatWords {
    /// `rule` in words. Where the grammar has a phrase for it (no COUNT, UNTIL or week start other than Monday; the
    /// BY parts a phrase can say; the anchor `due` or `completion`), the phrase itself, which `text/parseItem` reads
    /// back as the same rule and anchor. Otherwise a description in the same words that does not read back: the
    /// parts a phrase cannot say come after a comma (`every month on the 2nd last day`, `every day, 10 times`,
    /// `every week, until 2026-12-31`, `every week, next after today` for `dueFuture`).
    /// - Complexity: O(BY parts).
    public static func text(_ rule: RepeatRule) -> String {
        var text = "every " + cadence(rule)
        text += days(rule)
        var notes: [String] = []
        switch rule.end {
        case .count(let count)?: notes.append(count == 1 ? "once" : "\(count) times")
        case .until(.date(let date))?: notes.append("until \(date)")
        case .until(.instant(let instant))?: notes.append("until \(instant)")
        case nil: break
        }
        if rule.weekStart != .monday, rule.frequency == .weekly, rule.interval > 1 {
            notes.append("weeks starting \(name(rule.weekStart))")
        }
        switch rule.anchor {
        case .due: break
        case .completion: text += " after done"
        case .dueFuture: notes.append("next after today")
        }
        return ([text] + notes).joined(separator: ", ")
    }

    /// `day`, `3 days`, `other week`, `weekday`, `mon, wed`, `2 weeks`.
    private static func cadence(_ rule: RepeatRule) -> String {
        let unit: String
        switch rule.frequency {
        case .daily: unit = "day"
        case .weekly: unit = "week"
        case .monthly: unit = "month"
        case .yearly: unit = "year"
        }
        if rule.frequency == .weekly, rule.interval == 1, !rule.weekdays.isEmpty, rule.weekdays.allSatisfy({ $0.ordinal == nil }) {
            let days = Set(rule.weekdays.map(\.weekday))
            if days == [.monday, .tuesday, .wednesday, .thursday, .friday] { return "weekday" }
            if days == [.saturday, .sunday] { return "weekend" }
            return days.sorted().map(name).joined(separator: ", ")
        }
        switch rule.interval {
        case 1: return unit
        case 2: return "other " + unit
        default: return "\(rule.interval) \(unit)s"
        }
    }

    /// ` on …` (weekdays of a weekly rule with an interval, days or numbered weekdays of a month, a date of a year)
    /// and ` in …` (months a phrase cannot say), or nothing.
    private static func days(_ rule: RepeatRule) -> String {
        let weekdays = rule.weekdays.sorted { ($0.ordinal ?? 0, $0.weekday) < ($1.ordinal ?? 0, $1.weekday) }
        var items: [String] = []
        switch rule.frequency {
        case .weekly where rule.interval == 1 && weekdays.allSatisfy({ $0.ordinal == nil }):
            break // said by the cadence
        default:
            items += weekdays.map { entry in entry.ordinal.map { "the " + ordinal($0) + " " + name(entry.weekday) } ?? name(entry.weekday) }
        }
        let monthDays = rule.monthDays.sorted { ($0 < 0 ? 100 - $0 : $0) < ($1 < 0 ? 100 - $1 : $1) }
        if rule.frequency == .yearly, rule.months.count == 1, monthDays.count == 1, let day = monthDays.first, day > 0, weekdays.isEmpty {
            return " on " + monthName(rule.months.first!) + " \(day)"
        }
        items += monthDays.map { "the " + dayWords($0) }
        let on = items.isEmpty ? "" : " on " + list(items)
        guard !rule.months.isEmpty else { return on }
        return on + " in " + rule.months.sorted().map(monthName).joined(separator: ", ")
    }

    /// Items joined as a phrase reads them: `a`, `a and b`, `a, b and c`.
    private static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// `15th`, `last day`, `2nd last day`.
    private static func dayWords(_ day: Int) -> String {
        if day == -1 { return "last day" }
        if day < 0 { return ordinal(-day) + " last day" }
        return ordinal(day)
    }

    /// `1st`, `2nd`, `3rd`, `11th`, `last`, `2nd last`.
    private static func ordinal(_ number: Int) -> String {
        if number == -1 { return "last" }
        if number < 0 { return ordinal(-number) + " last" }
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }

    private static func name(_ weekday: RepeatRule.Weekday) -> String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][weekday.rawValue]
    }

    private static func monthName(_ month: Int) -> String {
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"][month - 1]
    }
}
