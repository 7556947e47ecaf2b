// SortOrder: a list's manual order as CalDAV clients carry it — `X-APPLE-SORT-ORDER` on each VTODO (Apple's
// Reminders, tasks.org): siblings (the tasks of one parent, or the top level) in ascending order of the value, which
// counts seconds from 2001-01-01. A task without the property sorts as if it held its `CREATED` time on that scale.

import Domain

/// Turns a list's manual order into sort-order values and back.
///
/// - Sending: `numbered` gives each task a value that agrees with the list's order, changing as few values as it can
///   (the longest run of siblings whose values already ascend keeps them; each other sibling gets a value between
///   its neighbours'), so that a move sends one task, and a list built by adding tasks at the end sends none.
/// - Receiving: `reordering` says which siblings to move so that their order ascends by value again, moving as few
///   as it can.
public enum SortOrder {
    /// The extra that carries the value.
    public static let key = "ical:X-APPLE-SORT-ORDER"
    /// 2001-01-01T00:00:00Z in Unix seconds: the scale's zero.
    static let referenceSecond: Int64 = 978_307_200
    /// The space left between a new value and its one neighbour (at either end of the siblings).
    static let step: Int64 = 1_024

    /// The value `task` sorts by: its `X-APPLE-SORT-ORDER` when that is an integer, else its creation on the same
    /// scale, else nil (it sorts nowhere in particular).
    public static func value(of task: ExchangeTask) -> Int64? {
        if let extra = task.extras.last(where: { $0.key == key }), let colon = extra.value.firstIndex(of: ":"),
           let number = Int64(extra.value[extra.value.index(after: colon)...]) {
            return number
        }
        guard let created = task.createdAt else { return nil }
        return second(created) - referenceSecond
    }

    /// `task` holding `value` as its `X-APPLE-SORT-ORDER`.
    static func setting(_ value: Int64, on task: ExchangeTask) -> ExchangeTask {
        var task = task
        task.extras.removeAll { $0.key == key }
        task.extras.append(Extra(key: key, value: ":\(value)"))
        return task
    }

    /// `tasks`, a list's tasks in manual tree order (a parent before its subtasks, siblings in order), each holding
    /// a value that agrees with that order: siblings ascend by value, then uid (the order `reordering` gives equal
    /// values on every machine). A task whose value already fits keeps it (and gets no property it did not have);
    /// the others get one. So a calendar whose tasks share one `CREATED` second, received and put in uid order, sends
    /// nothing back.
    /// - Complexity: O(n log n) for n tasks.
    public static func numbered(_ tasks: [ExchangeTask]) -> [ExchangeTask] {
        var siblings: [String?: [Int]] = [:]
        for (index, task) in tasks.enumerated() { siblings[task.parentUID, default: []].append(index) }
        var result = tasks
        for members in siblings.values {
            let values = members.map { value(of: tasks[$0]) }
            let agreeing = ascending(values, ties: members.map { tasks[$0].uid ?? "" })
            for (offset, member) in members.enumerated() where agreeing[offset] != values[offset] {
                if let value = agreeing[offset] { result[member] = setting(value, on: tasks[member]) }
            }
        }
        return result
    }

    /// `values` made ascending where set — by value, then by `ties` (each value's tie-breaker, the uid) — changing as
    /// few as it can: the longest run already ascending so keeps its values; each run of others between two kept
    /// values is spread evenly between them (`step` apart beyond the first or last kept value). When two kept values
    /// leave too little room (equal ones included), every value is renumbered `step` apart from the smallest. Unset
    /// values stay unset.
    /// - Complexity: O(k log k) for k values.
    static func ascending(_ values: [Int64?], ties: [String]) -> [Int64?] {
        let set = values.indices.filter { values[$0] != nil }
        let kept = Set(longestAscending(set.map { Tied(value: values[$0]!, tie: ties[$0]) }).map { set[$0] })
        var result = values
        var run: [Int] = []
        var previous: Int64?
        func spread(before next: Int64?) -> Bool {
            defer { run = [] }
            guard !run.isEmpty else { return true }
            let count = Int64(run.count)
            for (offset, index) in run.enumerated() {
                let place = Int64(offset) + 1
                switch (previous, next) {
                case (let low?, let high?):
                    let (gap, overflow) = high.subtractingReportingOverflow(low)
                    guard !overflow, gap > count else { return false }
                    result[index] = low + gap / (count + 1) * place + gap % (count + 1) * place / (count + 1)
                case (let low?, nil):
                    let (value, overflow) = low.addingReportingOverflow(step * place)
                    guard !overflow else { return false }
                    result[index] = value
                case (nil, let high?):
                    let (value, overflow) = high.subtractingReportingOverflow(step * (count + 1 - place))
                    guard !overflow else { return false }
                    result[index] = value
                case (nil, nil):
                    return false
                }
            }
            return true
        }
        var fits = true
        for index in set {
            if kept.contains(index) {
                fits = fits && spread(before: values[index])
                previous = values[index]
            } else {
                run.append(index)
            }
        }
        fits = fits && spread(before: nil)
        guard fits else {
            let lowest = max(set.compactMap { values[$0] }.min() ?? 0, Int64.min / 2)
            var next = lowest
            for index in set {
                result[index] = next
                next = next < Int64.max / 2 ? next + step : next + 1
            }
            return result
        }
        return result
    }

    /// A value and its tie-breaker, in that order.
    struct Tied: Comparable {
        let value: Int64
        let tie: String
        static func < (lhs: Tied, rhs: Tied) -> Bool { (lhs.value, lhs.tie) < (rhs.value, rhs.tie) }
    }

    /// The positions of a longest strictly ascending subsequence of `values`, in order.
    /// - Complexity: O(k log k).
    static func longestAscending<Value: Comparable>(_ values: [Value]) -> [Int] {
        // tails[l]: the position of the smallest last value of an ascending run of length l + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var positions: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            positions.append(position)
            position = previous[position]
        }
        return positions.reversed()
    }

    /// The moves that put `siblings` (in their order now) in ascending order of their values, equal values in the
    /// order of `tie` (the uid: every machine then orders them alike, and numbers them alike next time), tasks without
    /// a value keeping their places: each move puts `element` just before `before` (nil: after the last sibling), and
    /// the moves apply in the order given. Moves as few as it can.
    /// - Complexity: O(k log k) for k siblings.
    public static func reordering<Element>(_ siblings: [Element], value: (Element) -> Int64?,
                                           tie: (Element) -> String) -> [(element: Element, before: Element?)] {
        let values = siblings.map(value)
        let ties = siblings.map(tie)
        let set = siblings.indices.filter { values[$0] != nil }
        let sorted = set.sorted { (values[$0]!, ties[$0], $0) < (values[$1]!, ties[$1], $1) }
        var desired = Array(siblings.indices)
        for (slot, index) in zip(set, sorted) { desired[slot] = index }
        // Those already in order stay; the others move, last first, each before its successor in the new order.
        let staying = Set(longestAscending(desired).map { desired[$0] })
        var moves: [(element: Element, before: Element?)] = []
        for place in desired.indices.reversed() where !staying.contains(desired[place]) {
            moves.append((siblings[desired[place]], place + 1 < desired.count ? siblings[desired[place + 1]] : nil))
        }
        return moves
    }
}
