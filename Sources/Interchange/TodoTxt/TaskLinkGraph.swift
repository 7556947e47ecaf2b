// TaskLinkGraph: the parent links of a file's tasks (by index) checked as a whole: the links that go round, and
// the tasks under an invalid one. Shared by the todo.txt and backup readers.

/// Parent links as an array: `parents[i]` is the index of task `i`'s parent, nil at the top level.
enum TaskLinkGraph {
    /// The cycles of parent links, each as the indexes on it in the order the links go (a task that is its own
    /// parent is a cycle of one), in the order of their first task found.
    /// - Complexity: O(number of tasks).
    static func cycles(parents: [Int?]) -> [[Int]] {
        var state = [UInt8](repeating: 0, count: parents.count)  // 0 unseen, 1 on the current path, 2 finished
        var position = [Int](repeating: 0, count: parents.count)
        var result: [[Int]] = []
        for start in parents.indices where state[start] == 0 {
            var path: [Int] = []
            var node: Int? = start
            while let current = node, state[current] == 0 {
                state[current] = 1
                position[current] = path.count
                path.append(current)
                node = parents[current]
            }
            if let current = node, state[current] == 1 { result.append(Array(path[position[current]...])) }
            for index in path { state[index] = 2 }
        }
        return result
    }

    /// Which tasks are invalid or lie under an invalid task (at any depth). Every task on a cycle must be invalid
    /// already.
    /// - Complexity: O(number of tasks).
    static func invalidated(parents: [Int?], invalid: [Bool]) -> [Bool] {
        var resolved: [Bool?] = invalid.map { $0 ? true : nil }
        for start in parents.indices where resolved[start] == nil {
            var path: [Int] = []
            var node = start
            var answer = false
            while true {
                if let known = resolved[node] {
                    answer = known
                    break
                }
                resolved[node] = false  // a guard against a cycle of valid tasks; overwritten below
                path.append(node)
                guard let parent = parents[node] else { break }
                node = parent
            }
            for index in path { resolved[index] = answer }
        }
        return resolved.map { $0 ?? false }
    }
}
