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
    /// longest increasing subsequence, insertions (top down, at their final index), then updates of rows
    /// that stayed in place but whose content changed (`changed`). Moves carry the row exactly when it changed;
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
        let stable = longestIncreasingSubsequence(target.map { currentIndex[$0]! }).reduce(into: Set<ID>()) {
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

    /// The values (not indexes) of one longest strictly increasing subsequence of `values`.
    /// - Complexity: O(n log n).
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
        var tails: [Int] = []          // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.append(values[index])
            index = previous[index]
        }
        return result.reversed()
    }
}
