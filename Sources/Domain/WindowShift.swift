// WindowShift: where the rows of a window go when one row of the whole sequence moves, comes or goes.

/// A window `[start, start + rows)` over a sequence of rows in which one row (the changed one) moved from rank `old`
/// to rank `new` (nil: it had no row, or has none now) and every other row kept its order. Ranks among those other
/// rows ("others") count neither place of the changed row: the window held the others from `oldFirst` on, and holds
/// them from `newFirst` on; the others in both windows are `kept`, the rest leave or enter at its ends.
struct WindowShift {
    /// The changed row's index in the window before and after, when it is in it.
    let oldIndex: Int?
    let newIndex: Int?
    /// The rank among the others of the first other row in the window before and after.
    let oldFirst: Int
    let newFirst: Int
    /// The changed row's rank now (nil: none), to tell a row's rank among the others from its rank now.
    let new: Int?
    /// The others in the window before and after.
    let kept: Range<Int>
    /// The others that leave the window, and those that enter it (at most a few).
    let leaving: [Int]
    let entering: [Int]

    /// - Parameters: `oldRows` and `newRows`: the rows the window holds before and after (at most its size).
    /// - Complexity: O(1 + rows leaving and entering).
    init(start: Int, oldRows: Int, newRows: Int, old: Int?, new: Int?) {
        oldIndex = old.flatMap { $0 >= start && $0 < start + oldRows ? $0 - start : nil }
        newIndex = new.flatMap { $0 >= start && $0 < start + newRows ? $0 - start : nil }
        oldFirst = start - (old.map { $0 < start ? 1 : 0 } ?? 0)
        newFirst = start - (new.map { $0 < start ? 1 : 0 } ?? 0)
        self.new = new
        let oldEnd = oldFirst + oldRows - (oldIndex == nil ? 0 : 1)
        let newEnd = newFirst + newRows - (newIndex == nil ? 0 : 1)
        let lower = max(oldFirst, newFirst)
        kept = lower..<max(lower, min(oldEnd, newEnd))
        leaving = Self.outside(oldFirst..<oldEnd, kept)
        entering = Self.outside(newFirst..<newEnd, kept)
    }

    /// The window index, before the change, of the other row at rank `other` among the others.
    func before(_ other: Int) -> Int {
        let offset = other - oldFirst
        return offset + (oldIndex.map { offset >= $0 ? 1 : 0 } ?? 0)
    }

    /// The window index, after the change, of the other row at rank `other` among the others.
    func after(_ other: Int) -> Int {
        let offset = other - newFirst
        return offset + (newIndex.map { offset >= $0 ? 1 : 0 } ?? 0)
    }

    /// The rank among the others of the row (not the changed one) at `rank` now.
    func other(atRank rank: Int) -> Int {
        rank - (new.map { $0 < rank ? 1 : 0 } ?? 0)
    }

    /// The removals, bottom up: the others leaving, and the changed row when it leaves the window.
    var removals: [Int] {
        var removals = leaving.map(before)
        if let oldIndex, newIndex == nil { removals.append(oldIndex) }
        return removals.sorted(by: >)
    }

    /// Where the changed row goes among the kept rows, when it is in the window before and after: `from` its index
    /// among them (itself included) before, `to` after; equal when it stays in place.
    var move: (from: Int, to: Int)? {
        guard let oldIndex, let newIndex else { return nil }
        let from = max(0, min(kept.upperBound, oldFirst + oldIndex) - kept.lowerBound)
        let to = max(0, min(kept.upperBound, newFirst + newIndex) - kept.lowerBound)
        return (from, to)
    }

    /// The ranks of `range` outside `inner` (which lies within it, or is empty): one run before it and one after.
    private static func outside(_ range: Range<Int>, _ inner: Range<Int>) -> [Int] {
        guard !inner.isEmpty else { return Array(range) }
        return Array(range.lowerBound..<max(range.lowerBound, inner.lowerBound))
            + Array(min(range.upperBound, inner.upperBound)..<range.upperBound)
    }
}
