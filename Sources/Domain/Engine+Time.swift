// Time moving on: re-evaluating date-based membership and due buckets in bounded chunks, and the overview's counts.

/// One chunk of moving to a new day: the views' changes, and whether the move is complete.
public struct TimeAdvance: Sendable {
    /// One change per affected view, in view-id order; each leaves its view exact.
    public var changes: [ViewChange]
    /// Whether every due is now evaluated in the newest day handed to `Engine.advance`.
    public var finished: Bool
}

/// The lists overview: every list and every smart group with its live count.
public struct Overview: Hashable, Sendable {
    /// Every list in manual order with its counts.
    public var lists: [ListSummary]
    /// Every smart group, in `SmartGroup.allCases` order, with its count.
    public var groups: [GroupSummary]
    /// The client's local date the counts are for: a new day is a new overview even when no count changed.
    public var today: CalendarDate
    /// Every smart list in its manual order with its count.
    public var smartLists: [SmartListSummary]

    public init(lists: [ListSummary], groups: [GroupSummary], today: CalendarDate, smartLists: [SmartListSummary] = []) {
        self.lists = lists
        self.groups = groups
        self.today = today
        self.smartLists = smartLists
    }

    /// An overview no engine produces (it has no smart groups): what a watching client is taken to have seen
    /// while the store cannot serve, so the first real overview is always sent.
    public static let unseen = Overview(lists: [], groups: [], today: CalendarDate(daysSinceEpoch: 0))

    /// Whether `other` reads exactly as this overview, spelling included: `==` takes two Unicode spellings
    /// of one text (NFC and NFD) as equal, and a client is told of a new spelling too.
    /// - Complexity: O(lists and their names' lengths).
    public func isIdentical(to other: Overview) -> Bool {
        self == other && lists.elementsEqual(other.lists) { Validation.spelledAlike($0.list, $1.list) }
            && smartLists.elementsEqual(other.smartLists) { $0.smartList.isSpelledAlike($1.smartList) }
    }
}

/// A smart group with its live count.
public struct GroupSummary: Hashable, Sendable {
    /// The group.
    public var group: SmartGroup
    /// How many items it holds.
    public var count: Int

    public init(group: SmartGroup, count: Int) {
        self.group = group
        self.count = count
    }
}

extension Engine {
    /// The number of items one call of `advance` re-evaluates by default: small enough that a chunk at
    /// a million items takes a few milliseconds, so requests waiting behind it are barely delayed.
    public static let defaultTimeBudget = 1_000

    /// The client's day as last handed to `advance` (`Today.epoch` until then).
    public var today: Today { day.today }

    /// The next instant after `today.now` at which some item's status changes by time alone (the next day
    /// start, or 1 ms after the next due instant not before now): call `advance` with the day at that instant
    /// then. Nil while a move to a new day is unfinished (call `advance` again first).
    /// - Complexity: O(log n).
    public var nextTimeChange: Timestamp? {
        day.remaining.isEmpty && day.queued == nil ? day.nextChange : nil
    }

    /// Every list, smart group and smart list with its count.
    /// - Complexity: O(number of lists + s log s for s smart lists).
    public func overview() -> Overview {
        Overview(lists: lists(), groups: SmartGroup.allCases.map { GroupSummary(group: $0, count: day.counts[$0]) },
                 today: day.today.date, smartLists: smartLists())
    }

    /// Moves the engine towards `today`: re-evaluates, at most `budget` items at a time, the items whose
    /// status (Today, Overdue, due bucket) may differ between the previous day and `today`, found by range
    /// queries over the index of dues. Call it again with the same day until `finished`; mutations may be
    /// applied between calls. A new day handed in before the previous move finished is moved to after it.
    /// - Returns: the changes of the views this chunk affected (each exact and versioned as usual).
    /// - Complexity: O(budget · (log n + views)) plus the window diffs of the affected views.
    public mutating func advance(to today: Today, budget: Int) -> TimeAdvance {
        if day.remaining.isEmpty {
            start(day.queued ?? today)
            day.queued = nil
        }
        if today != day.today, day.queued != today { day.queued = today }
        if day.queued == day.today { day.queued = nil }
        var changes: [KeyChange] = []
        var taken = 0
        while taken < max(1, budget), let range = day.remaining.first {
            let lower = day.dues.insertionRank(of: range.lower)
            let upper = day.dues.insertionRank(of: range.upper)
            let keys = day.dues.keys(in: lower..<min(upper, lower + max(1, budget) - taken))
            taken += keys.count
            if lower + keys.count >= upper {
                day.remaining.removeFirst()
            } else {
                let last = keys.last!
                day.remaining[0].lower = DueKey(kind: last.kind, value: last.value, item: ItemID(last.item.rawValue + 1))
            }
            for key in keys {
                let item = state.item(key.item)!
                let old = day.previous.status(of: item.due)
                let new = day.today.status(of: item.due)
                guard old != new else { continue }
                day.count(item, status: old, by: -1)
                day.count(item, status: new, by: 1)
                let position = state.lists[item.list]!.positionBytes
                changes.append(KeyChange(id: item.id, old: Keyed(item: item, status: old, listPosition: position),
                                         new: Keyed(item: item, status: new, listPosition: position)))
            }
        }
        let viewChanges = changes.isEmpty ? [] : propagate(changes, contentChanged: false)
        if day.remaining.isEmpty, let queued = day.queued {
            start(queued)
            day.queued = nil
        }
        return TimeAdvance(changes: viewChanges, finished: day.remaining.isEmpty && day.queued == nil)
    }

    /// Starts moving from the current day to `today` (nothing to do when it is the same day).
    private mutating func start(_ today: Today) {
        guard today != day.today else { return }
        day.previous = day.today
        day.today = today
        day.remaining = day.previous.changedRanges(to: today)
    }
}
