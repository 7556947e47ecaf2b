/// An undo step in words: what `undo` and `redo` say they undid or redid ("delete 3 tasks"), so that no client shows a
/// method name to a person or keeps its own record of what its requests were.

import Domain
import TasklsProtocol

/// The words for a step: a verb and what it touched, counted.
enum StepDescription {
    /// The words for a request of `method` that changed `changes`: `add 1 task`, `delete 3 tasks`, `complete 2
    /// tasks`, `reopen 1 task`, `edit 2 tasks`, `move 2 tasks`, `move 2 tasks to another list`, `indent 1 task`,
    /// `outdent 2 tasks`, `duplicate 1 task`, `skip 1 task`,
    /// `create a list`, `rename a list`, `edit a list`, `delete a list and its 4 tasks`, `reorder lists`,
    /// `create a smart list`, `rename a smart list`, `edit a smart list`, `delete a smart list`, `reorder smart lists`,
    /// `import 120 tasks`; the method
    /// itself for anything else.
    /// - Complexity: O(changes).
    static func words(method: String, changes: Changes) -> String {
        let items = changes.items
        switch method {
        case ItemsCreate.method: return "add " + tasks(items.count)
        case ItemsDuplicate.method: return "duplicate " + tasks(items.count)
        case ItemsDelete.method: return "delete " + tasks(items.count)
        case ItemsMove.method:
            let elsewhere = items.contains { $0.old != nil && $0.new != nil && $0.old?.list != $0.new?.list }
            return "move " + tasks(items.count) + (elsewhere ? " to another list" : "")
        case ItemsUpdate.method:
            // A repeating item completed moves on to its next occurrence (its done subtasks reopen with it).
            let completed = items.filter { change in
                guard let old = change.old, let new = change.new else { return false }
                return (!old.done && new.done) || new.occurrences.completed > old.occurrences.completed
            }
            if !completed.isEmpty && items.allSatisfy({ completed.contains($0) || ($0.old?.done == true && $0.new?.done == false) }) {
                return "complete " + tasks(completed.count)
            }
            if !items.isEmpty && items.allSatisfy({ $0.old?.done == true && $0.new?.done == false }) { return "reopen " + tasks(items.count) }
            return "edit " + tasks(items.count)
        case ItemsSkip.method:
            return "skip " + tasks(items.filter { ($0.new?.occurrences.skipped ?? 0) > ($0.old?.occurrences.skipped ?? 0) }.count)
        case ItemsIndent.method, ItemsOutdent.method:
            // The tops: their subtrees ride along unchanged.
            let tops = items.filter { $0.old != nil && $0.new != nil && $0.old?.parent != $0.new?.parent }.count
            return (method == ItemsIndent.method ? "indent " : "outdent ") + tasks(tops)
        case ListsCreate.method: return "create a list"
        case ListsUpdate.method:
            let renamed = changes.lists.contains { $0.old?.name != $0.new?.name }
            return renamed ? "rename a list" : "edit a list"
        case ListsDelete.method:
            return items.isEmpty ? "delete a list" : "delete a list and its " + tasks(items.count)
        case ListsMove.method: return "reorder lists"
        case SmartListsCreate.method: return "create a smart list"
        case SmartListsUpdate.method:
            let renamed = changes.smartLists.contains { $0.old?.name != $0.new?.name }
            return renamed ? "rename a smart list" : "edit a smart list"
        case SmartListsDelete.method: return "delete a smart list"
        case SmartListsMove.method: return "reorder smart lists"
        case StoreImport.method: return "import " + tasks(items.count)
        default: return method
        }
    }

    /// `1 task`, `3 tasks`.
    private static func tasks(_ count: Int) -> String { count == 1 ? "1 task" : "\(count) tasks" }
}
