// WindowDiff: the sequential window operations that turn a window's old rows into its new ones, keyed by id.

/// Computes window operations by a keyed diff of two windows (never of whole lists), keyed by row id.
enum WindowDiff {
    /// Operations turning `old` into `new` when only the items in `touched` may have changed key (few of them):
    /// every other item kept its key, so the untouched rows of both windows are runs of one sequence and line
    /// up by one linear scan, without hashing. Same operations, in the same order, as
    /// `operations(old:new:changed:row:)`: removals (bottom up), moves of touched rows that changed place
    /// (carrying the row when `changed`), insertions (top down), then updates of the `changed` rows that stayed
    /// in place. A touched row whose content did not change and whose place did not either gets no operation.
    /// - Complexity: O(w · (1 + touched.count)) for windows of w rows.
    static func operations<ID: Hashable>(old: [ID], new: [ID], touched: [ID], changed: (ID) -> Bool,
                                         row: (ID) -> Row) -> [WindowOperation] {
        var operations: [WindowOperation] = []
        let oldUntouched = old.indices.filter { !touched.contains(old[$0]) }
        let newUntouched = new.indices.filter { !touched.contains(new[$0]) }
        var keepOld = [Bool](repeating: false, count: old.count)
        var fromOld = [Bool](repeating: false, count: new.count)
        // The untouched rows both windows share: a run starting at oldStart in oldUntouched and newStart in newUntouched.
        var oldStart = 0
        var newStart = 0
        var shared = 0
        if let first = newUntouched.first, let at = oldUntouched.firstIndex(where: { old[$0] == new[first] }) {
            oldStart = at
        } else if let first = oldUntouched.first, let at = newUntouched.firstIndex(where: { new[$0] == old[first] }) {
            newStart = at
        } else {
            oldStart = oldUntouched.count
        }
        shared = max(0, min(oldUntouched.count - oldStart, newUntouched.count - newStart))
        for offset in 0..<shared {
            keepOld[oldUntouched[oldStart + offset]] = true
            fromOld[newUntouched[newStart + offset]] = true
        }
        for (index, id) in old.enumerated() where touched.contains(id) && new.contains(id) { keepOld[index] = true }
        for (index, id) in new.enumerated() where touched.contains(id) && old.contains(id) { fromOld[index] = true }
        for index in old.indices.reversed() where !keepOld[index] {
            operations.append(.remove(index: index))
        }
        var current = old.indices.compactMap { keepOld[$0] ? old[$0] : nil }
        let target = new.indices.compactMap { fromOld[$0] ? new[$0] : nil }
        var moved: [ID] = []
        for (targetIndex, id) in target.enumerated() where touched.contains(id) {
            let from = current.firstIndex(of: id)!
            current.remove(at: from)
            let to = targetIndex == 0 ? 0 : current.firstIndex(of: target[targetIndex - 1])! + 1
            current.insert(id, at: to)
            if from != to {
                operations.append(.move(from: from, to: to, row: changed(id) ? row(id) : nil))
                moved.append(id)
            }
        }
        for (index, id) in new.enumerated() where !fromOld[index] {
            operations.append(.insert(index: index, row: row(id)))
        }
        for (index, id) in new.enumerated() where fromOld[index] && touched.contains(id) && !moved.contains(id) && changed(id) {
            operations.append(.update(index: index, row: row(id)))
        }
        return operations
    }

    /// Operations turning `old` into `new`: removals (from the bottom up), moves of the rows outside a
    /// heaviest increasing subsequence (the rows that stay keep as many unchanged rows in place as can be, then as
    /// many changed ones: a changed row needs an operation anyway, so moving it costs nothing more), insertions
    /// (top down, at their final index), then updates of rows that stayed in place but whose content changed
    /// (`changed`). Moves carry the row exactly when it changed;
    /// a row that neither changed nor moved gets no operation, so equal windows of unchanged rows give none.
    /// - Complexity: O(w log w) for windows of w rows.
    static func operations<ID: Hashable>(old: [ID], new: [ID], changed: (ID) -> Bool,
                                         row: (ID) -> Row) -> [WindowOperation] {
        var operations: [WindowOperation] = []
        if old == new {
            for (index, id) in new.enumerated() where changed(id) {
                operations.append(.update(index: index, row: row(id)))
            }
            return operations
        }
        var newIndex: [ID: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (index, id) in new.enumerated() { newIndex[id] = index }
        var current: [ID] = []
        current.reserveCapacity(old.count)
        var oldPresence = Set<ID>()
        oldPresence.reserveCapacity(old.count)
        for index in old.indices.reversed() where newIndex[old[index]] == nil {
            operations.append(.remove(index: index))
        }
        for id in old where newIndex[id] != nil {
            current.append(id)
            oldPresence.insert(id)
        }
        let target = new.filter { oldPresence.contains($0) }
        var currentIndex: [ID: Int] = [:]
        currentIndex.reserveCapacity(current.count)
        for (index, id) in current.enumerated() { currentIndex[id] = index }
        let heavy = target.count + 1
        let stable = heaviestIncreasingSubsequence(target.map { currentIndex[$0]! },
                                                   weights: target.map { changed($0) ? 1 : heavy }).reduce(into: Set<ID>()) {
            $0.insert(current[$1])
        }
        var moved = Set<ID>()
        for (targetIndex, id) in target.enumerated() where !stable.contains(id) {
            let from = current.firstIndex(of: id)!
            current.remove(at: from)
            let to = targetIndex == 0 ? 0 : current.firstIndex(of: target[targetIndex - 1])! + 1
            current.insert(id, at: to)
            guard from != to else { continue }
            operations.append(.move(from: from, to: to, row: changed(id) ? row(id) : nil))
            moved.insert(id)
        }
        for (index, id) in new.enumerated() where !oldPresence.contains(id) {
            operations.append(.insert(index: index, row: row(id)))
        }
        for (index, id) in new.enumerated() where oldPresence.contains(id) && !moved.contains(id) && changed(id) {
            operations.append(.update(index: index, row: row(id)))
        }
        return operations
    }

    /// The values (not indexes) of one strictly increasing subsequence of `values` (a permutation of
    /// `0..<values.count`) whose `weights` sum the most.
    /// - Complexity: O(n log n), with a Fenwick tree of prefix maxima over the values.
    static func heaviestIncreasingSubsequence(_ values: [Int], weights: [Int]) -> [Int] {
        let count = values.count
        // tree[i]: the best (sum, index into values) among the values in i's Fenwick range.
        var tree = [(sum: Int, index: Int)](repeating: (0, -1), count: count + 1)
        var previous = [Int](repeating: -1, count: count)
        var best = (sum: 0, index: -1)
        for (index, value) in values.enumerated() {
            var before = (sum: 0, index: -1)
            var position = value
            while position > 0 {
                if tree[position].sum > before.sum { before = tree[position] }
                position -= position & -position
            }
            let here = (sum: before.sum + weights[index], index: index)
            previous[index] = before.index
            if here.sum > best.sum { best = here }
            position = value + 1
            while position <= count {
                if here.sum > tree[position].sum { tree[position] = here }
                position += position & -position
            }
        }
        var result: [Int] = []
        var index = best.index
        while index >= 0 {
            result.append(values[index])
            index = previous[index]
        }
        return result.reversed()
    }
}
