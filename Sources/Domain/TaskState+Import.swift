// Importing: an `ExchangeDocument` matched to the state (tasks by uid, lists by name, parents by uid) and turned
// into one group of mutations, with what it creates, updates and leaves alone counted.

/// What an import does, decided before anything changes: the mutations (one group, so all or nothing and one
/// undo step) and the counts a dry run reports.
public struct ImportPlan: Sendable {
    /// The group to apply: lists created first, then new items (parents first), then changed items restored.
    public var mutations: [Mutation] = []
    /// The names of the lists the import creates, in order.
    public var createdLists: [String] = []
    /// The smart lists it creates (by name; the backup only).
    public var createdSmartLists: [String] = []
    /// How many tasks become new items.
    public var created = 0
    /// How many tasks update the item with their uid.
    public var updated = 0
    /// How many tasks match an item that already holds everything they say.
    public var unchanged = 0
    /// What is wrong with the document against this state (a parent missing, a cycle, a field out of limits);
    /// the import is refused when there is any (`skipInvalid` leaves those tasks out instead).
    public var problems: [ExchangeProblem] = []
    /// The tasks left out because of their problems (only with `skipInvalid`).
    public var skipped: [ExchangeProblem] = []
}

/// Where an import puts tasks and how it treats invalid ones.
public struct ImportSettings: Sendable {
    /// The list for tasks whose file names none; nil: the state's first list, else a new list `defaultListName`.
    public var into: ListID?
    /// The name of the list made for tasks without one when the state has no list.
    public var defaultListName: String
    /// The file's name, for problems.
    public var fileName: String
    /// Leave invalid tasks out (each in `skipped`) instead of refusing the import.
    public var skipInvalid: Bool
    /// The import's time: created and modified times where the file gives none.
    public var time: Timestamp

    /// Makes the settings.
    public init(into: ListID? = nil, defaultListName: String = "Inbox", fileName: String, skipInvalid: Bool = false,
                time: Timestamp) {
        self.into = into
        self.defaultListName = defaultListName
        self.fileName = fileName
        self.skipInvalid = skipInvalid
        self.time = time
    }
}

extension TaskState {
    /// The group of mutations that imports `document`, with its counts, or its problems.
    ///
    /// - A task whose `uid` is an item's (`Item.uid`, or the uid an export made for an item without one,
    ///   `ExchangeIdentity`) updates that item: every field the file gives, its extras of the file's formats
    ///   replaced and the others kept; it moves to the file's list (or parent) when the file says another one, else
    ///   it stays where it is. Nothing changes for a task that says what the item holds (`unchanged`), so
    ///   importing a file twice changes nothing the second time.
    ///   A moved item is moved after the restores, with its subtree, last among its new siblings.
    /// - Any other task becomes a new item, last among its parent's subtasks (or its list's top level), in the
    ///   document's order; it keeps the file's uid.
    /// - A list is the state's list of that exact name, else one whose name is the file's with each `_` read as a
    ///   space (todo.txt's `+Home_Stuff`), else a new list. A subtask goes to its parent's list.
    /// - Complexity: O(k × (depth + log n)) for k tasks, plus O(n) once when a uid of the form exports make for items
    ///   without one is looked up.
    public func importPlan(_ document: ExchangeDocument, settings: ImportSettings) -> ImportPlan {
        var planner = ImportPlanner(state: self, settings: settings)
        planner.plan(document)
        return planner.result
    }
}

/// Builds an `ImportPlan`: one pass over the document's tasks, parents before subtasks.
private struct ImportPlanner {
    let state: TaskState
    let settings: ImportSettings
    var result = ImportPlan()
    /// The next id to hand out to an item or a smart list (after every list's: lists are created first, and
    /// `claim` wants a list's id above every id claimed before it).
    var nextIdentifier: UInt64
    /// The next id to hand out to a list, below every item's.
    var nextListIdentifier: UInt64
    /// The document's tasks by uid (the first of each).
    var byUID: [String: Int] = [:]
    /// The tasks left out: a uid given twice, a cycle.
    var invalid = Set<Int>()
    /// The document, once planning starts.
    var document = ExchangeDocument()
    /// Lists by the name the document used.
    var listsByName: [String: ListID] = [:]
    /// The default list, once decided.
    var defaultList: ListID?
    /// Where each document task went: its item id and list (by index in the document).
    var placed: [Int: (id: ItemID, list: ListID)] = [:]
    /// The last position given among the subtasks of a parent (nil key: a list's top level) in a list.
    var lastPositions: [PlaceKey: Position] = [:]
    /// The items the plan inserts, parents first.
    var inserted: [Item] = []
    /// The items the plan changes, by id (their new values).
    var restored: [Item] = []
    /// The moves of items the file puts under another parent or in another list, after the restores.
    var moves: [Mutation] = []

    struct PlaceKey: Hashable {
        let list: ListID
        let parent: ItemID?
    }

    init(state: TaskState, settings: ImportSettings) {
        self.state = state
        self.settings = settings
        nextIdentifier = state.nextIdentifier
        nextListIdentifier = state.nextIdentifier
    }

    mutating func fresh() -> UInt64 {
        defer { nextIdentifier += 1 }
        return nextIdentifier
    }

    mutating func freshListIdentifier() -> UInt64 {
        defer { nextListIdentifier += 1 }
        return nextListIdentifier
    }

    mutating func problem(_ task: ExchangeTask?, field: String?, _ message: String) {
        result.problems.append(ExchangeProblem(file: settings.fileName, line: task?.line ?? 0, field: field, message: message))
    }

    mutating func plan(_ document: ExchangeDocument) {
        self.document = document
        placed.reserveCapacity(document.tasks.count)
        insertedDepth.reserveCapacity(document.tasks.count)
        // Lists take the ids below the items' (at most one per name, and the default list).
        let names = Set(document.lists.map(\.name) + document.tasks.compactMap(\.list) + document.smartLists.flatMap { $0.lists ?? [] })
        nextIdentifier += UInt64(names.count + 1)
        for list in document.lists { _ = resolveList(named: list.name, fields: list) }
        let order = orderParentsFirst(document.tasks)
        for index in order where !invalid.contains(index) {
            let task = document.tasks[index]
            let before = result.problems.count
            placeTask(task, index: index)
            if result.problems.count > before { invalid.insert(index) }
        }
        if settings.skipInvalid {
            result.skipped = result.problems
            result.problems = []
        }
        guard result.problems.isEmpty else {
            result.mutations = []
            return
        }
        // A mutation names at most `Limits.idsPerMutation` items; the group stays one.
        for start in stride(from: 0, to: inserted.count, by: Limits.idsPerMutation) {
            result.mutations.append(.insertItems(items: Array(inserted[start..<min(start + Limits.idsPerMutation, inserted.count)])))
        }
        for start in stride(from: 0, to: restored.count, by: Limits.idsPerMutation) {
            result.mutations.append(.restoreItems(items: Array(restored[start..<min(start + Limits.idsPerMutation, restored.count)])))
        }
        result.mutations += moves
        // Smart lists last: their ids are above every item's.
        planSmartLists(document.smartLists)
    }

    // MARK: Lists

    /// The list a name stands for, creating it (in the plan) when the state has none of that name.
    mutating func resolveList(named name: String, fields: ExchangeList? = nil) -> ListID? {
        if let id = listsByName[name] { return id }
        let lists = state.orderedLists
        let spaced = name.replacingUnderscores()
        let existing = lists.first { $0.name == name } ?? lists.first { $0.name == spaced }
        let id: ListID
        if let existing {
            id = existing.id
        } else {
            let listFields = ListFields(name: name, color: fields?.color, icon: fields?.icon)
            do throws(DomainError) {
                try Validation.listFields(listFields)
            } catch {
                problem(nil, field: "list", "\"\(name)\": \(error.message)")
                return nil
            }
            id = ListID(freshListIdentifier())
            result.mutations.append(.createList(id: id, fields: listFields, before: nil))
            result.createdLists.append(name)
        }
        listsByName[name] = id
        return id
    }

    /// The list for tasks whose file names none.
    mutating func resolveDefaultList() -> ListID? {
        if let defaultList { return defaultList }
        if let into = settings.into, state.lists[into] != nil {
            defaultList = into
        } else if let first = state.orderedLists.first {
            defaultList = first.id
        } else {
            defaultList = resolveList(named: settings.defaultListName)
        }
        return defaultList
    }

    // MARK: Tasks

    /// The document's task indexes with every parent before its subtasks (a parent's uid missing from the
    /// document is left for `placeTask` to resolve), and problems for duplicate uids and cycles.
    mutating func orderParentsFirst(_ tasks: [ExchangeTask]) -> [Int] {
        byUID.reserveCapacity(tasks.count)
        for (index, task) in tasks.enumerated() {
            guard let uid = task.uid else { continue }
            if let first = byUID[uid] {
                problem(task, field: "uid", "\"\(uid)\" appears twice (lines \(tasks[first].line) and \(task.line))")
                invalid.insert(index)
            } else {
                byUID[uid] = index
            }
        }
        var order: [Int] = []
        order.reserveCapacity(tasks.count)
        // 0: not visited, 1: on the current path, 2: ordered.
        var state = [UInt8](repeating: 0, count: tasks.count)
        for start in tasks.indices where state[start] == 0 {
            var path: [Int] = []
            var current: Int? = start
            while let index = current, state[index] == 0 {
                state[index] = 1
                path.append(index)
                current = tasks[index].parentUID.flatMap { byUID[$0] }
            }
            if let index = current, state[index] == 1 {
                problem(tasks[index], field: "parent", "subtasks form a cycle through \"\(tasks[index].uid ?? "")\"")
                // The tasks on the cycle are left out (their descendants then miss their parent).
                var member = index
                repeat {
                    invalid.insert(member)
                    guard let next = tasks[member].parentUID.flatMap({ byUID[$0] }) else { break }
                    member = next
                } while member != index
            }
            for index in path.reversed() {
                state[index] = 2
                order.append(index)
            }
        }
        return order
    }

    mutating func placeTask(_ task: ExchangeTask, index: Int) {
        // The parent: a task of the document (placed before this one), else an item of the state with that uid.
        var parent: (id: ItemID, list: ListID)?
        if let parentUID = task.parentUID {
            if let parentIndex = byUID[parentUID], parentIndex != index {
                guard !invalid.contains(parentIndex), let placedParent = placed[parentIndex] else {
                    problem(task, field: "parent", "its parent \"\(parentUID)\" was not imported")
                    return
                }
                parent = placedParent
            } else if let item = state.matchingItem(uid: parentUID) {
                parent = (item.id, item.list)
            } else {
                problem(task, field: "parent", "no task or item has the uid \"\(parentUID)\"")
                return
            }
        }
        let named: ListID? = if let name = task.list { resolveList(named: name) } else { nil }
        let existing = task.uid.flatMap { state.matchingItem(uid: $0) }
        // A subtask goes to its parent's list; a task that names no list stays where it is, else goes to the default.
        guard let list = parent?.list ?? existing?.list ?? named ?? resolveDefaultList() else { return }
        var fields = ItemFields(title: task.title, notes: task.notes, done: task.done, due: task.due,
                                priority: task.priority, tags: task.tags, repeatRule: task.repeatRule, alerts: task.alerts)
        do throws(DomainError) {
            fields = try Validation.fields(fields)
            if fields.repeatRule != nil && fields.due == nil {
                throw .invalidField(field: "repeat", problem: "a repeating task needs a due")
            }
            try Validation.uid(task.uid)
            try Validation.extras(task.extras)
        } catch {
            problem(task, field: nil, error.message)
            return
        }
        if let existing {
            update(existing, with: task, fields: fields, parent: parent?.id, named: named)
            // Its subtasks in the file go where it is now (a move of it carries them along).
            placed[index] = (existing.id, existing.list)
            return
        }
        let depth = parent.map { depthOf($0.id) + 1 } ?? 0
        guard depth <= Limits.maxDepth else {
            problem(task, field: "parent", "subtasks may nest at most \(Limits.maxDepth) deep")
            return
        }
        let id = ItemID(fresh())
        var item = Item(id: id, list: list, fields: fields, position: nextPosition(list: list, parent: parent?.id),
                        parent: parent?.id, at: task.createdAt ?? settings.time)
        item.completedAt = task.done ? (task.completedAt ?? task.modifiedAt ?? settings.time) : nil
        item.modifiedAt = max(task.modifiedAt ?? settings.time, item.createdAt)
        item.occurrences = task.occurrences
        item.uid = task.uid
        item.extras = task.extras
        inserted.append(item)
        insertedDepth[id] = depth
        placed[index] = (id, list)
        result.created += 1
    }

    /// Depths of the items this plan inserts (the state knows the others').
    var insertedDepth: [ItemID: Int] = [:]

    func depthOf(_ id: ItemID) -> Int {
        insertedDepth[id] ?? state.depth(of: id)
    }

    /// The position after the last one among `parent`'s subtasks in `list` (the state's, then the plan's).
    mutating func nextPosition(list: ListID, parent: ItemID?) -> Position {
        let key = PlaceKey(list: list, parent: parent)
        let last: Position?
        if let planned = lastPositions[key] {
            last = planned
        } else if state.lists[list] == nil || parent.map({ insertedDepth[$0] != nil }) ?? false {
            // A list or a parent this import makes has no subtasks yet.
            last = nil
        } else {
            last = state.manualGap(in: list, under: parent, before: nil).0
        }
        let position = Position.between(last, nil)
        lastPositions[key] = position
        return position
    }

    /// Plans the update of `existing` to what `task` says: its fields restored as the file gives them (one
    /// `restoreItems`), and a move (with its subtree) when the file puts it under another parent, or names another
    /// list for it. A file that says nothing of parents (todo.txt without `parent:`, Taskwarrior) moves nothing.
    mutating func update(_ existing: Item, with task: ExchangeTask, fields: ItemFields, parent: ItemID?, named: ListID?) {
        var item = existing
        item.title = fields.title
        item.notes = fields.notes
        if fields.done != item.done {
            item.done = fields.done
            item.completedAt = fields.done ? (task.completedAt ?? settings.time) : nil
        } else if fields.done, let completedAt = task.completedAt {
            item.completedAt = completedAt
        }
        item.due = fields.due
        item.priority = fields.priority
        item.tags = fields.tags
        item.repeatRule = fields.repeatRule
        item.alerts = fields.alerts
        if task.occurrences != .none { item.occurrences = task.occurrences }
        let formats = Set(task.extras.map { String($0.format) })
        item.extras = existing.extras.filter { !formats.contains(String($0.format)) } + task.extras
        if item.uid == nil, let uid = task.uid, !ExchangeIdentity.isDerived(uid) { item.uid = uid }
        if item != existing || !Validation.spelledAlike(item, existing) {
            item.revision = existing.revision + 1
            item.modifiedAt = max(task.modifiedAt ?? settings.time, existing.modifiedAt)
            restored.append(item)
        }
        var move: Mutation?
        if let parent, parent != existing.parent {
            move = .moveItems(ids: [existing.id], toList: nil, before: nil, parent: .set(parent), at: settings.time)
        } else if parent == nil, let named, named != existing.list, !parentGoes(existing, to: named) {
            move = .moveItems(ids: [existing.id], toList: named, before: nil, parent: .clear, at: settings.time)
        }
        if let move { moves.append(move) }
        if move != nil || !restored.isEmpty && restored.last?.id == existing.id {
            result.updated += 1
        } else {
            result.unchanged += 1
        }
    }

    /// Whether `item`'s parent is a task of the document that goes to `list` too (then `item` rides along with it).
    mutating func parentGoes(_ item: Item, to list: ListID) -> Bool {
        guard let parent = item.parent.flatMap({ state.item($0) }),
              let index = byUID[ExchangeIdentity.uid(of: parent)] else { return false }
        let task = document.tasks[index]
        if let name = task.list { return resolveList(named: name) == list }
        return false
    }

    // MARK: Smart lists

    mutating func planSmartLists(_ smartLists: [ExchangeSmartList]) {
        for smartList in smartLists {
            guard !state.smartLists.values.contains(where: { $0.name == smartList.name }) else { continue }
            var sources: Set<ListID>?
            if let names = smartList.lists {
                var ids = Set<ListID>()
                for name in names {
                    guard let id = resolveList(named: name) else { return }
                    ids.insert(id)
                }
                sources = ids
            }
            let fields = SmartListFields(name: smartList.name, color: smartList.color, icon: smartList.icon,
                                         rule: SmartListRule(filter: smartList.filter, lists: sources))
            result.mutations.append(.createSmartList(id: SmartListID(fresh()), fields: fields, before: nil))
            result.createdSmartLists.append(smartList.name)
        }
    }
}

extension TaskState {
    /// The item a file's uid stands for: the item holding it, else the item an export named so (it had none).
    /// - Complexity: O(1).
    public func matchingItem(uid: String) -> Item? {
        if let item = item(withUID: uid) { return item }
        guard let (id, stamp) = ExchangeIdentity.parse(uid), let item = item(id), item.uid == nil,
              ExchangeIdentity.stamp(of: item) == stamp else { return nil }
        return item
    }
}

private extension String {
    func replacingUnderscores() -> String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
