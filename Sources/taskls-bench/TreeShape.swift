/// The tree benchmark's list: a deterministic tree of items made in tree order, so that a snapshot restore takes it in O(n).

import Domain
import TestSupport

/// `size` items in one list, shaped as a tree of at most 6 levels (depths 0 to 5): most items leaves, a few
/// parents with thousands of children (at 1M; proportionally fewer at smaller sizes, so every size has the
/// same shape), and three parents set apart: `big`, with a tenth of the list below it (100,000 descendants at
/// 1M), whose subtree spans the middle of the list (rows 45 % to 55 %), `thousand` with 1,000 descendants and
/// `ten` with 10, both at the top of the list. The same size always gives the same tree.
struct TreeShape {
    /// The deepest depth the shape makes.
    static let deepest = 5

    static let words = ["alpha", "Beta", "gamma", "Éclair", "delta", "zeta", "omega", "kappa", "Ünter", "lambda"]

    let list = ListID(1)
    let size: Int
    /// Every item, in tree order (each sibling group in manual order), until `takeItems` hands them over.
    private(set) var items: [Item] = []
    /// The items at the top level.
    private(set) var topLevel: [ItemID] = []
    /// The items above the deepest depth: where a subtask can be created without making the tree deeper.
    private(set) var shallow: [ItemID] = []
    /// Every item, by id order.
    private(set) var all: [ItemID] = []
    /// The sibling groups of two or more items, each in manual order.
    private(set) var siblingGroups: [[ItemID]] = []
    /// The parents that have a sibling: their group in `siblingGroups` and their place in it.
    private(set) var movableParents: [(group: Int, member: Int)] = []
    /// The items that are not the first of their siblings (made so; a move among siblings may change that).
    private(set) var indentable: [ItemID] = []
    /// How many items have subtasks.
    private(set) var parentCount = 0
    /// The most subtasks one item has.
    private(set) var widest = 0
    private(set) var big = ItemID(0)
    private(set) var thousand = ItemID(0)
    private(set) var ten = ItemID(0)
    /// The number of descendants of `big`.
    let bigDescendants: Int

    private var random = SplitMix64(seed: 18)
    private let positions: [Position]
    private let time = Timestamp(milliseconds: 1_795_000_000_000)
    /// The largest subtree a random pick makes (5,000 at 1M).
    private let largest: Int

    /// Makes the tree.
    /// - Complexity: O(size).
    init(size: Int) {
        precondition(size >= 10_000, "the shape needs room for its parents set apart")
        self.size = size
        bigDescendants = size / 10
        largest = max(10, size / 200)
        positions = Position.between(nil, nil, count: size)
        items.reserveCapacity(size)
        all.reserveCapacity(size)
        shallow.reserveCapacity(size / 2)
        let wide = max(40, size / 250)
        var flags: [Bool] = []
        func add(_ id: ItemID, parent isParent: Bool) {
            topLevel.append(id)
            flags.append(isParent)
        }
        ten = subtree(size: 11, parent: nil, depth: 0)
        add(ten, parent: true)
        thousand = subtree(size: 1_001, parent: nil, depth: 0)
        add(thousand, parent: true)
        for (until, special) in [(20, 0), (45, 1), (70, 0), (90, 0), (100, -1)] {
            while items.count < size * until / 100 {
                let child = min(randomSubtreeSize(), size * until / 100 - items.count)
                add(subtree(size: child, parent: nil, depth: 0), parent: child > 1)
            }
            switch special {
            case 0: add(subtree(size: wide + 1, parent: nil, depth: 0, leavesOnly: true), parent: true)
            case 1:
                big = subtree(size: bigDescendants + 1, parent: nil, depth: 0)
                add(big, parent: true)
            default: break
            }
        }
        record(siblings: topLevel, parents: flags)
        precondition(items.count == size)
    }

    /// The items, handed over once (the shape keeps only their ids).
    mutating func takeItems() -> [Item] {
        defer { items = [] }
        return items
    }

    /// The size of a random subtree: most are leaves, some small, a few medium, one in 200 large.
    private mutating func randomSubtreeSize() -> Int {
        let draw = random.below(1_000)
        if draw < 850 { return 1 }
        if draw < 960 { return random.int(in: 2...10) }
        if draw < 995 { return random.int(in: 11...max(11, largest / 16)) }
        return random.int(in: max(12, largest / 16)...largest)
    }

    /// Makes an item and `size - 1` descendants under `parent`, in tree order (`leavesOnly`: all its subtasks
    /// leaves); returns the item's id.
    private mutating func subtree(size: Int, parent: ItemID?, depth: Int, leavesOnly: Bool = false) -> ItemID {
        let id = item(parent: parent, leaf: size == 1)
        if depth < Self.deepest { shallow.append(id) }
        guard size > 1 else { return id }
        parentCount += 1
        var children: [ItemID] = []
        var flags: [Bool] = []
        var remaining = size - 1
        while remaining > 0 {
            let child = leavesOnly || depth + 1 == Self.deepest ? 1 : min(remaining, randomSubtreeSize())
            children.append(subtree(size: child, parent: id, depth: depth + 1))
            flags.append(child > 1)
            remaining -= child
        }
        record(siblings: children, parents: flags)
        return id
    }

    /// Notes a sibling group (`parents[i]`: whether its i-th item has subtasks).
    private mutating func record(siblings: [ItemID], parents: [Bool]) {
        widest = max(widest, siblings.count)
        indentable += siblings.dropFirst()
        guard siblings.count > 1 else { return }
        let group = siblingGroups.count
        siblingGroups.append(siblings)
        for (member, isParent) in parents.enumerated() where isParent { movableParents.append((group, member)) }
    }

    /// Appends the next item in tree order: a random title, a due on three items in four, one leaf in ten done.
    private mutating func item(parent: ItemID?, leaf: Bool) -> ItemID {
        let index = items.count
        let id = ItemID(UInt64(index) + 2)
        let due: Due? = random.chance(25) ? nil : .date(randomDate())
        let done = leaf && random.chance(10)
        items.append(Item(id: id, list: list, title: random.pick(Self.words) + " " + String(index), notes: "", done: done,
                          completedAt: done ? time : nil, due: due, priority: random.pick(Priority.allCases), tags: [],
                          createdAt: time, modifiedAt: time, revision: 1, position: positions[index], parent: parent))
        all.append(id)
        return id
    }

    /// A random day of 2026.
    mutating func randomDate() -> CalendarDate {
        CalendarDate(year: 2026, month: random.int(in: 1...12), day: random.int(in: 1...28))!
    }
}
