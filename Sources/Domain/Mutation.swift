// Mutation: every change to the state, as a value carrying its ids and times (replayable anywhere).

/// One change to the state. The server never edits state any other way.
///
/// A mutation carries everything it needs (new ids, times), so applying the same mutations in
/// the same order gives the same state in every process. Several mutations sent together are
/// applied as one group, atomically: all of them or none (`Engine.apply`).
public enum Mutation: Hashable, Sendable {
    /// Creates a list with a fresh id (at least `TaskState.nextIdentifier`), placed before `before` or last.
    case createList(id: ListID, fields: ListFields, before: ListID?)
    /// Renames, recolors or changes the icon of a list.
    case updateList(id: ListID, patch: ListPatch)
    /// Deletes a list and every item in it; views on it are closed with reason `listDeleted`.
    case deleteList(id: ListID)
    /// Moves lists, as a block in their current relative order, before `before` (nil: to the end). A move that
    /// leaves the order of lists as it was changes nothing. The side holding fewer items, the block or the lists
    /// it jumps over, gets new positions (decided by the state alone, so every replay decides alike).
    case moveLists(ids: [ListID], before: ListID?)
    /// Creates an item with a fresh id in `list`, before the item `before` (which must be in that list), as its
    /// sibling, or last among the subtasks of `parent` (`.clear` or nil: at the top level). With `before` and a
    /// `parent` (`.clear` included), `before` must be a subtask of `parent` (at the top level for `.clear`).
    case createItem(id: ItemID, list: ListID, fields: ItemFields, before: ItemID?, parent: Clearable<ItemID>? = nil,
                    at: Timestamp)
    /// Changes fields of items. An item the patch leaves unchanged is not touched (its revision stays). Marking an
    /// item done marks its open descendants done too.
    case updateItems(ids: [ItemID], patch: ItemPatch, at: Timestamp)
    /// Moves repeating items on to their next occurrence: each item's due becomes `next`, the occurrence it leaves
    /// (its old due, the outcome, `at`) is added to its history, it is not done, and its done descendants are set
    /// back to not done (a checklist that starts again). The server computes `next` (`TaskState.completionMutations`,
    /// `skipMutations`: the rule, the client's zone and day), so replaying needs no zone. Refused with
    /// `notRepeating` for an item without a rule.
    case advanceItems(advances: [Advance], at: Timestamp)
    /// Deletes items and their subtrees. Unknown ids refuse the whole mutation.
    case deleteItems(ids: [ItemID])
    /// Moves items, as a block in their current order (list order, then manual order), before `before`,
    /// or to the end when `before` is nil. The destination is `toList`, else the list of `before`, else
    /// the items' own list (they must then share one). A move that leaves every list's order as it was changes
    /// nothing (the items keep their positions, revisions and times). Each item moves with its subtree (ids
    /// inside another moved item's subtree ride along). The block's parent is `parent` when given (`.clear`:
    /// the top level), else `before`'s parent, else the top level.
    case moveItems(ids: [ItemID], toList: ListID?, before: ItemID?, parent: Clearable<ItemID>? = nil, at: Timestamp)
    /// Stores lists exactly as given (id, fields, position): a list that exists takes these values, a deleted
    /// one comes back empty. Undo and redo make these (`TaskState.inverse(of:at:)`). Refused, with reason
    /// `identifierUnused`, for an id never used or held by an item, and with `positionTaken` when two lists
    /// would end with one position.
    case restoreLists(lists: [TaskList])
    /// Stores items exactly as given (id, list, position, every field, revision and times): an item that exists
    /// takes these values, a deleted one comes back. Undo and redo make these (`TaskState.inverse(of:at:)`).
    /// Refused, with reason `changedSince`, when an item exists with a revision not below the given one (revisions
    /// never go back); `identifierUnused` for an id never used or held by a list; `positionTaken` when two items
    /// of a list would end with one position; `notFound` for a list that does not exist. The uid and extras come back
    /// too: a group that would leave two items with one uid is refused with `uidTaken`.
    case restoreItems(items: [Item])
    /// Creates items exactly as given (id, list, parent, position, every field, revision, times, repeat rule, history,
    /// alerts, uid, extras), in order: what an import makes. Tags and alerts are normalized as `createItem` does.
    /// Each id must be free: not below `TaskState.nextIdentifier` as it was before this mutation (which then moves
    /// past every id given) and not given twice (`identifierUsed`). Each item's list must exist (`notFound`); its
    /// parent must exist, among the items already there or those before it here (parents first: `notFound`), in
    /// the same list (`parentInOtherList`), no deeper than `Limits.maxDepth` allows (`tooDeep`); no sibling may have
    /// its position (`positionTaken`); its fields are checked as `createItem` checks them, plus the uid and extras
    /// (`invalidField` naming `items[i].field`), and a repeat needs a due (`repeatWithoutDue`). Two items left with
    /// one uid refuse the group (`uidTaken`). Everything that follows a creation follows each item (counts, views,
    /// reminders); the inverse deletes them.
    case insertItems(items: [Item])
    /// Creates a smart list with a fresh id (at least `TaskState.nextIdentifier`), placed before `before` or last
    /// among smart lists. Every list its rule names must exist (`notFound`).
    case createSmartList(id: SmartListID, fields: SmartListFields, before: SmartListID?)
    /// Changes a smart list's name, color, icon, filter or source lists.
    case updateSmartList(id: SmartListID, patch: SmartListPatch)
    /// Deletes a smart list; views on it are closed with reason `smartListDeleted`.
    case deleteSmartList(id: SmartListID)
    /// Moves smart lists as a block, in their current relative order, before `before` (nil: to the end), as
    /// `moveLists` moves lists. A move that leaves the order as it was changes nothing.
    case moveSmartLists(ids: [SmartListID], before: SmartListID?)
    /// Stores smart lists exactly as given (undo and redo make these): one that exists takes these values, a
    /// deleted one comes back. Refused with `identifierUnused` for an id never used or held by a list or an item,
    /// `positionTaken` when two smart lists would share a position, `notFound` for a source list that is gone.
    case restoreSmartLists(smartLists: [SmartList])
    /// Records these reminders as fired at `at` (each `pending`, whatever it was: a snoozed one fires again this
    /// way), then forgets every record whose last instant is more than `Reminder.forgetAfter` before `at`. The
    /// server claims reminders with it under the store's lock, so each fires once across processes. Changes no
    /// item, no revision, no undo step. Refused with `notFound` for an item that does not exist.
    case fireReminders(reminders: [FiredReminder], at: Timestamp)
    /// Dismisses a fired reminder (pending or snoozed): it never fires again. Refused with reason `notFound`
    /// when it has not fired or was dismissed already. Changes no item, no revision, no undo step.
    case dismissReminder(ReminderKey, at: Timestamp)
    /// Snoozes a fired reminder (pending or snoozed) until `until`, when it fires again. Refused as
    /// `dismissReminder` is. Changes no item, no revision, no undo step.
    case snoozeReminder(ReminderKey, until: Timestamp, at: Timestamp)
}

/// One repeating item moved on to its next occurrence (`Mutation.advanceItems`).
public struct Advance: Hashable, Sendable {
    /// The item.
    public let id: ItemID
    /// Its new due.
    public let next: Due
    /// Whether the occurrence it leaves was completed or skipped.
    public let outcome: Occurrence.Outcome

    /// Makes an advance.
    public init(id: ItemID, next: Due, outcome: Occurrence.Outcome) {
        self.id = id
        self.next = next
        self.outcome = outcome
    }
}
