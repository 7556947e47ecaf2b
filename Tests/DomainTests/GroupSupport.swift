// Support for the smart group, filter and section tests: days with uneven starts, and the true rows of a view
// computed from the state alone, independently of the indexes.

import Testing
@testable import Domain

/// Milliseconds in a day.
let dayLength: Int64 = 86_400_000

/// A day starting at UTC midnight of `date`, shifted by `shifts[k]` ms for the start of day k (uneven
/// days, as around a daylight saving change), at `now` ms after its start.
func makeDay(_ date: CalendarDate, after milliseconds: Int64 = 0, shifts: [Int64] = Array(repeating: 0, count: 9)) -> Today {
    let starts = (0..<9).map { Timestamp(milliseconds: (date.daysSinceEpoch + Int64($0)) * dayLength + shifts[$0]) }
    return Today(now: Timestamp(milliseconds: starts[0].milliseconds + milliseconds), date: date, dayStarts: starts)
}

/// A date from its parts (which must exist).
func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDate {
    CalendarDate(year: year, month: month, day: day)!
}

/// Whether an item with these fields is in `source` on `today`, as protocol.md says ("Smart groups").
func expectedInSource(_ source: ViewSource, list: ListID, done: Bool, due: Due?, today: Today) -> Bool {
    let (bucket, isToday) = expectedBucket(due, today)
    switch source {
    case .list(let only): return list == only
    case .group(.today): return !done && isToday
    case .group(.overdue): return !done && bucket == .overdue
    case .group(.scheduled): return !done && due != nil
    case .group(.all): return !done
    case .group(.completed): return done
    case .smartList: preconditionFailure("a smart list's items depend on every field: SmartListTests recount them")
    }
}

/// The section an item with these fields falls in under `grouping`, as protocol.md says ("Sections").
func expectedSection(_ grouping: Grouping, due: Due?, priority: Priority, list: ListID, done: Bool,
                     today: Today) -> SectionID? {
    switch grouping {
    case .none: nil
    case .dueBucket: .due(expectedBucket(due, today).bucket)
    case .priority: .priority(priority)
    case .list: .list(list)
    case .done: .done(done)
    }
}

/// The place of `section` among a view's sections, the lists' sections ranked by their place in `lists`.
func expectedSectionRank(_ section: SectionID, lists: [ListID]) -> Int {
    switch section {
    case .due(let bucket): bucket.rawValue
    case .priority(let priority): [Priority.high, .medium, .low, .none].firstIndex(of: priority)!
    case .list(let list): lists.firstIndex(of: list)!
    case .done(let done): done ? 1 : 0
    }
}

/// The status of a due on a day, written out from the rules in protocol.md, independently of `Today.status`.
func expectedBucket(_ due: Due?, _ today: Today) -> (bucket: DueBucket, isToday: Bool) {
    switch due {
    case nil: return (.noDate, false)
    case .date(let date)?:
        let offset = date.daysSinceEpoch - today.date.daysSinceEpoch
        if offset < 0 { return (.overdue, false) }
        if offset == 0 { return (.today, true) }
        if offset == 1 { return (.tomorrow, false) }
        return (offset <= 7 ? .nextSevenDays : .later, false)
    case .dateTime(let instant, _)?:
        let isToday = today.dayStarts[0] <= instant && instant < today.dayStarts[1]
        if instant < today.now { return (.overdue, isToday) }
        if instant < today.dayStarts[1] { return (.today, isToday) }
        if instant < today.dayStarts[2] { return (.tomorrow, isToday) }
        return (instant < today.dayStarts[8] ? .nextSevenDays : .later, isToday)
    }
}

extension Engine {
    /// The items of `source` on the engine's day, computed from the state alone.
    func expectedMembers(of source: ViewSource) -> [Item] {
        if let id = source.smartList {
            // The smart list's rule as the state holds it now (its views must follow every edit), written out.
            let rule = state.smartLists[id]!.rule
            return state.items.values.map(\.item).filter { item in
                (rule.lists.map { $0.contains(item.list) } ?? true) && rule.filter.matches(item)
            }
        }
        return state.items.values.map(\.item).filter { item in
            expectedInSource(source, list: item.list, done: item.done, due: item.due, today: today)
        }
    }

    /// The rows a snapshot of `view` must show, computed from the state and the day alone.
    func expectedRows(of view: ViewID) -> (count: Int, rows: [Row])? {
        guard let open = views[view], let snapshot = try? snapshot(view), snapshot.state == .ready else { return nil }
        let spec = open.spec
        let day = today
        let listRanks = Dictionary(uniqueKeysWithValues: state.orderedLists.enumerated().map { ($1.id, $0) })
        let members = expectedMembers(of: spec.source).filter(spec.filter.matches)
        let listOrder = state.orderedLists.map(\.id)
        func section(_ item: Item) -> SectionID? {
            expectedSection(spec.grouping, due: item.due, priority: item.priority, list: item.list, done: item.done, today: day)
        }
        func sectionOrder(_ id: SectionID) -> Int { expectedSectionRank(id, lists: listOrder) }
        let smart = spec.source.list == nil
        // A smart group's manual order is the lists' order, then each list's; reversed whole when descending.
        let listsDescending = spec.sort.direction == .descending && spec.grouping != .list
        let sorted = members.sorted { lhs, rhs in
            if let left = section(lhs), let right = section(rhs), left != right {
                return sectionOrder(left) < sectionOrder(right)
            }
            if smart, spec.sort.field == .manual, lhs.list != rhs.list {
                return (listRanks[lhs.list]! < listRanks[rhs.list]!) != listsDescending
            }
            return trueOrder(lhs, rhs, spec.sort, listRanks: smart ? listRanks : nil)
        }
        var rows: [Row] = []
        var index = 0
        while index < sorted.count {
            if let id = section(sorted[index]) {
                var end = index
                while end < sorted.count, section(sorted[end]) == id { end += 1 }
                let title: String
                switch id {
                case .due(let bucket): title = ["Overdue", "Today", "Tomorrow", "Next 7 Days", "Later", "No Date"][bucket.rawValue]
                case .priority(let priority): title = ["No Priority", "Low", "Medium", "High"][priority.rank]
                case .list(let list): title = state.lists[list]!.name
                case .done(let done): title = done ? "Done" : "Not Done"
                }
                rows.append(.header(SectionHeader(section: id, title: title, count: end - index)))
                rows += sorted[index..<end].map { .item($0) }
                index = end
            } else {
                rows.append(.item(sorted[index]))
                index += 1
            }
        }
        return (rows.count, Array(rows[snapshot.window.ranks(count: rows.count)]))
    }
}

/// The sort order written out from protocol.md: the field, then manual order (the lists' order when `listRanks`
/// are given, as in a smart group, then the position), then id, both ascending.
func trueOrder(_ lhs: Item, _ rhs: Item, _ sort: Sort, listRanks: [ListID: Int]? = nil) -> Bool {
    let descending = sort.direction == .descending
    func ordered<T: Comparable>(_ a: T, _ b: T) -> Bool? { a == b ? nil : (a < b) != descending }
    let primary: Bool?
    switch sort.field {
    case .manual: primary = ordered(lhs.position, rhs.position)
    case .title: primary = ordered(lhs.titleKey, rhs.titleKey)
    case .priority: primary = ordered(lhs.priority, rhs.priority)
    case .created: primary = ordered(lhs.createdAt, rhs.createdAt)
    case .modified: primary = ordered(lhs.modifiedAt, rhs.modifiedAt)
    case .due:
        switch (lhs.due, rhs.due) {
        case (nil, nil): primary = nil
        case (nil, _): primary = false
        case (_, nil): primary = true
        case (let a?, let b?): primary = ordered(a.sortValue, b.sortValue)
        }
    }
    if let primary { return primary }
    if let listRanks, lhs.list != rhs.list { return listRanks[lhs.list]! < listRanks[rhs.list]! }
    if lhs.position != rhs.position { return lhs.position < rhs.position }
    return lhs.id < rhs.id
}
