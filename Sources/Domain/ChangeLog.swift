// ChangeLog: the primitive changes of a group being applied, to roll back on refusal or to summarize as Changes.

/// What one group of mutations has done so far, primitive by primitive.
struct ChangeLog {
    enum Entry {
        case item(ItemID, old: Item?, new: Item?)
        case list(ListID, old: TaskList?, new: TaskList?)
        case emptied(ListID, order: TreeOrder, items: [Item], openCount: Int)
        case smartList(SmartListID, old: SmartList?, new: SmartList?)
        case reminder(ReminderKey, old: Reminder?, new: Reminder?)
    }

    /// `TaskState.nextIdentifier` before the group.
    let nextIdentifier: UInt64
    var entries: [Entry] = []

    init(nextIdentifier: UInt64) { self.nextIdentifier = nextIdentifier }

    /// One change per item and list: the first old value and the last new value, in first-touched order,
    /// leaving out what ended as it began.
    /// - Complexity: O(entries) (searched without hashing while there are at most 16 of them).
    func changes() -> Changes {
        var items: [ItemChange] = []
        var itemSlots: [ItemID: Int] = [:]
        var lists: [ListChange] = []
        var listSlots: [ListID: Int] = [:]
        // Smart lists are few: searched linearly.
        var smartLists: [SmartListChange] = []
        var reminders: [ReminderChange] = []
        var reminderSlots: [ReminderKey: Int] = [:]
        let hashed = entries.count > 16 || entries.contains {
            if case .emptied = $0 { true } else { false }
        }
        func record(_ id: ItemID, old: Item?, new: Item?) {
            if let slot = hashed ? itemSlots[id] : items.firstIndex(where: { $0.id == id }) {
                items[slot].new = new
            } else {
                if hashed { itemSlots[id] = items.count }
                items.append(ItemChange(id: id, old: old, new: new))
            }
        }
        for entry in entries {
            switch entry {
            case .item(let id, let old, let new):
                record(id, old: old, new: new)
            case .list(let id, let old, let new):
                if let slot = hashed ? listSlots[id] : lists.firstIndex(where: { $0.id == id }) {
                    lists[slot].new = new
                } else {
                    if hashed { listSlots[id] = lists.count }
                    lists.append(ListChange(id: id, old: old, new: new))
                }
            case .emptied(_, _, let removed, _):
                for item in removed { record(item.id, old: item, new: nil) }
            case .smartList(let id, let old, let new):
                if let slot = smartLists.firstIndex(where: { $0.id == id }) {
                    smartLists[slot].new = new
                } else {
                    smartLists.append(SmartListChange(id: id, old: old, new: new))
                }
            case .reminder(let key, let old, let new):
                if let slot = reminderSlots[key] {
                    reminders[slot].new = new
                } else {
                    reminderSlots[key] = reminders.count
                    reminders.append(ReminderChange(key: key, old: old, new: new))
                }
            }
        }
        // A list renamed to a new Unicode spelling of its name is a change (its value is stored as given).
        return Changes(items: items.filter { $0.old != $0.new }, lists: lists.filter { change in
            guard let old = change.old, let new = change.new else { return change.old != change.new }
            return old != new || !Validation.spelledAlike(old, new)
        }, smartLists: smartLists.filter { change in
            guard let old = change.old, let new = change.new else { return change.old != change.new }
            return old != new || !old.isSpelledAlike(new)
        }, reminders: reminders.filter { $0.old != $0.new })
    }
}
