// DayState: the engine's day, the global index of dues, the re-evaluation still to do, and the smart groups' counts.

/// The time-dependent part of the engine: which day items are evaluated in, and what it takes to move on.
///
/// While a move to a new day is unfinished, the dues in `remaining` are still evaluated in `previous`;
/// every other due already in `today`. So an item's status is a pure function of the item and this value,
/// and an index built in the background can be keyed exactly as the engine keys it.
struct DayState: Sendable {
    /// The day the dues in `remaining` are still evaluated in.
    var previous = Today.epoch
    /// The day every other due is evaluated in (the newest day handed to `Engine.advance`).
    var today = Today.epoch
    /// Due-key ranges not yet re-evaluated from `previous` to `today`, disjoint and ascending.
    var remaining: [DueRange] = []
    /// A later day asked for while the move to `today` was unfinished: moved to once it finishes.
    var queued: Today?
    /// Every item with a due, done or not.
    var dues = OrderedIndex<DueKey>()
    /// The live count of each smart group.
    var counts = GroupCounts()

    /// The status of `item`'s due as the engine's indexes hold it.
    /// - Complexity: O(1) (a few ranges at most).
    func status(of item: Item) -> DueStatus {
        guard let key = DueKey(item) else { return DueStatus(bucket: .noDate, isToday: false) }
        let day = remaining.contains { $0.contains(key) } ? previous : today
        return day.status(of: item.due)
    }

    /// The smart groups' counts and the dues index after `old` became `new` (nil: absent), statuses taken now.
    /// - Complexity: O(log n).
    mutating func record(old: Item?, new: Item?) {
        if let old, let new, old.due == new.due, old.done == new.done { return }
        if let old {
            count(old, status: status(of: old), by: -1)
            if let key = DueKey(old) { dues.remove(key) }
        }
        if let new {
            count(new, status: status(of: new), by: 1)
            if let key = DueKey(new) { dues.insert(key) }
        }
    }

    /// Adds `delta` to the count of every smart group holding `item` with `status`.
    mutating func count(_ item: Item, status: DueStatus, by delta: Int) {
        for group in SmartGroup.allCases where group.contains(item, status: status) {
            counts[group] += delta
        }
    }

    /// The next instant after `today.now` at which an item's status changes without anyone touching it:
    /// the next day start, or just after the next due instant not before now, whichever is first.
    /// - Complexity: O(log n).
    var nextChange: Timestamp {
        let boundary = today.dayStarts[1]
        let from = DueKey(kind: .dateTime, value: today.now.milliseconds, item: ItemID(0))
        let rank = dues.insertionRank(of: from)
        guard rank < dues.count else { return boundary }
        let next = dues.key(at: rank)
        guard next.kind == .dateTime else { return boundary }
        return min(boundary, Timestamp(milliseconds: next.value + 1))
    }
}

/// A number per smart group, held in place rather than hashed: it changes for every item whose due status
/// changes, a thousand times per chunk of moving to a new day.
struct GroupCounts: Sendable {
    private var values = [Int](repeating: 0, count: SmartGroup.allCases.count)

    /// The group's number (0 until changed).
    /// - Complexity: O(1).
    subscript(group: SmartGroup) -> Int {
        get { values[Self.slot(group)] }
        set { values[Self.slot(group)] = newValue }
    }

    private static func slot(_ group: SmartGroup) -> Int {
        switch group {
        case .today: 0
        case .scheduled: 1
        case .overdue: 2
        case .all: 3
        case .completed: 4
        }
    }
}
