// An independent model of lists and items and the rows of any view over them, written from protocol.md alone:
// plain arrays, no positions, no indexes. It orders views (manual order across lists, ties, descending, sections,
// hidden rows) and applies moves, by id and by index ("just after the row before `to`"), by its own rules.

import Testing
@testable import Domain

/// What the model keeps of an item: its fields, not its place (that is its list's array).
struct ModelItem: Equatable {
    var id: ItemID
    var list: ListID
    var title: String
    var done: Bool
    var due: Due?
    var priority: Priority
    var tags: [String]
    var created: Int64
}

/// A filter the model understands, each written out below (not `Filter.matches`).
enum ModelFilter: CaseIterable {
    case everything, notDone, done, atLeastMedium, home

    var filter: Filter {
        switch self {
        case .everything: .all
        case .notDone: Filter(done: .notDone)
        case .done: Filter(done: .done)
        case .atLeastMedium: Filter(priorityAtLeast: .medium)
        case .home: Filter(tagsAnyOf: ["home"])
        }
    }

    func matches(_ item: ModelItem) -> Bool {
        switch self {
        case .everything: true
        case .notDone: !item.done
        case .done: item.done
        case .atLeastMedium: item.priority == .medium || item.priority == .high
        case .home: item.tags.contains("home")
        }
    }
}

/// One view the model computes: source, sort, filter and sections.
struct ModelSpec {
    var source: ViewSource
    var sort: Sort
    var filter: ModelFilter
    var grouping: Grouping
}

/// A row as the model sees it: a section header with its count, or an item with its section.
enum ModelRow: Equatable {
    case header(SectionID, count: Int)
    case item(ItemID, section: SectionID?)

    var section: SectionID? {
        switch self {
        case .header(let section, _): section
        case .item(_, let section): section
        }
    }

    var item: ItemID? {
        if case .item(let id, _) = self { return id }
        return nil
    }
}

/// What the model expects of a move by index: refused (for this reason or field), or the block placed so.
enum ModelMove: Equatable {
    case refused(String)
    /// Dropped where it is: nothing changes.
    case nothing
    case after(ItemID)
    case before(ItemID)
    case endOf(ListID)
}

/// The lists in order, each list's items in order, and the items' fields.
struct OrderModel {
    var lists: [ListID] = []
    var orders: [ListID: [ItemID]] = [:]
    var items: [ItemID: ModelItem] = [:]
    /// The client's day (fixed for a run): which dues are today and overdue.
    var today: Today

    // MARK: Mutations, by protocol.md's rules

    mutating func createList(_ id: ListID, before: ListID?) {
        lists.insert(id, at: before.flatMap { lists.firstIndex(of: $0) } ?? lists.count)
        orders[id] = []
    }

    mutating func deleteList(_ id: ListID) {
        for item in orders[id]! { items[item] = nil }
        orders[id] = nil
        lists.removeAll { $0 == id }
    }

    /// Moves lists as a block in their current order before `before` (not in the block), or to the end.
    mutating func moveLists(_ ids: [ListID], before: ListID?) {
        let block = lists.filter(ids.contains)
        lists.removeAll(where: ids.contains)
        lists.insert(contentsOf: block, at: before.flatMap { lists.firstIndex(of: $0) } ?? lists.count)
    }

    mutating func createItem(_ item: ModelItem, before: ItemID?) {
        items[item.id] = item
        orders[item.list]!.insert(item.id, at: before.flatMap { orders[item.list]!.firstIndex(of: $0) } ?? orders[item.list]!.count)
    }

    mutating func deleteItems(_ ids: [ItemID]) {
        for id in ids {
            orders[items[id]!.list]!.removeAll { $0 == id }
            items[id] = nil
        }
    }

    /// The items in their current order: the lists' order, then each list's.
    func blockOrder(_ ids: [ItemID]) -> [ItemID] {
        manualOrder().filter(ids.contains)
    }

    /// Every item, in the lists' order, then each list's.
    func manualOrder() -> [ItemID] {
        lists.flatMap { orders[$0]! }
    }

    /// A move by id as `items/move` describes it; false (and nothing changed) when it must be refused.
    mutating func moveItems(_ ids: [ItemID], toList: ListID?, before: ItemID?) -> Bool {
        if let before, ids.contains(before) { return false }
        let lists = Set(ids.map { items[$0]!.list })
        guard let destination = toList ?? before.map({ items[$0]!.list }) ?? (lists.count == 1 ? lists.first : nil),
              before.map({ items[$0]!.list == destination }) ?? true else { return false }
        let block = blockOrder(ids)
        for id in block { orders[items[id]!.list]!.removeAll { $0 == id } }
        for id in block { items[id]!.list = destination }
        let at = before.flatMap { orders[destination]!.firstIndex(of: $0) } ?? orders[destination]!.count
        orders[destination]!.insert(contentsOf: block, at: at)
        return true
    }

    /// Places `block` (in view order) where `move` says, out of wherever it was.
    mutating func place(_ block: [ItemID], _ move: ModelMove, lastOfBlock last: ItemID) {
        let anchor: (list: ListID, successor: ItemID?)
        switch move {
        case .refused, .nothing: return
        case .after(let item): anchor = (items[item]!.list, successor(of: item, skipping: block))
        case .before(let item): anchor = (items[item]!.list, item)
        case .endOf(let list): anchor = (list, nil)
        }
        _ = moveItems(block, toList: anchor.list, before: anchor.successor)
    }

    /// The next item after `item` in its list that is not in `skipped`.
    func successor(of item: ItemID, skipping skipped: [ItemID]) -> ItemID? {
        let order = orders[items[item]!.list]!
        return order[(order.firstIndex(of: item)! + 1)...].first { !skipped.contains($0) }
    }

    // MARK: Views

    func contains(_ source: ViewSource, _ item: ModelItem) -> Bool {
        expectedInSource(source, list: item.list, done: item.done, due: item.due, today: today)
    }

    func section(_ item: ModelItem, _ grouping: Grouping) -> SectionID? {
        expectedSection(grouping, due: item.due, priority: item.priority, list: item.list, done: item.done, today: today)
    }

    func sectionRank(_ section: SectionID) -> Int { expectedSectionRank(section, lists: lists) }

    /// The order of two dues: a day before the times of its date, times by their wall-clock reading.
    static func dueOrder(_ lhs: Due, _ rhs: Due) -> Int {
        func parts(_ due: Due) -> (day: Int64, kind: Int, wall: Int64) {
            switch due {
            case .date(let date): return (date.daysSinceEpoch, 0, 0)
            case .dateTime(let instant, let offset):
                let wall = instant.milliseconds + Int64(offset) * 1000
                return (wall.floorDivided(by: dayLength).quotient, 1, wall)
            }
        }
        let (left, right) = (parts(lhs), parts(rhs))
        if left.day != right.day { return left.day < right.day ? -1 : 1 }
        if left.kind != right.kind { return left.kind < right.kind ? -1 : 1 }
        return left.wall == right.wall ? 0 : (left.wall < right.wall ? -1 : 1)
    }

    /// The field's order of two items (negative: `lhs` first), ascending; nil when the field ties. Items with no
    /// due come last in either direction, so that case answers for the direction itself.
    func fieldOrder(_ lhs: ModelItem, _ rhs: ModelItem, _ sort: Sort, modified: [ItemID: Int64]) -> Int {
        func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a == b ? 0 : (a < b ? -1 : 1) }
        let sign = sort.direction == .descending ? -1 : 1
        switch sort.field {
        case .manual: return 0
        case .title:
            // ASCII titles only: folding is lowercasing.
            let (left, right) = (Array(lhs.title.lowercased().utf8), Array(rhs.title.lowercased().utf8))
            return left == right ? 0 : sign * (left.lexicographicallyPrecedes(right) ? -1 : 1)
        case .priority:
            let ranks: [Priority] = [.none, .low, .medium, .high]
            return sign * compare(ranks.firstIndex(of: lhs.priority)!, ranks.firstIndex(of: rhs.priority)!)
        case .created: return sign * compare(lhs.created, rhs.created)
        case .modified: return sign * compare(modified[lhs.id]!, modified[rhs.id]!)
        case .due:
            switch (lhs.due, rhs.due) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case (let a?, let b?): return sign * OrderModel.dueOrder(a, b)
            }
        }
    }

    /// Every row of a view: members in the source's manual order (the lists' order, then each list's), sorted
    /// by section, then the field (manual: that order, reversed when descending, within each list's section when
    /// grouped by list), ties in that manual order ascending; a header before each non-empty section.
    func rows(_ spec: ModelSpec, modified: [ItemID: Int64]) -> [ModelRow] {
        let members = manualOrder().map { items[$0]! }.filter { contains(spec.source, $0) && spec.filter.matches($0) }
        let manualRank = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.id, $0) })
        let reversed = spec.sort.field == .manual && spec.sort.direction == .descending
        let sorted = members.sorted { lhs, rhs in
            if let left = section(lhs, spec.grouping), let right = section(rhs, spec.grouping), left != right {
                return sectionRank(left) < sectionRank(right)
            }
            let field = fieldOrder(lhs, rhs, spec.sort, modified: modified)
            if field != 0 { return field < 0 }
            return (manualRank[lhs.id]! < manualRank[rhs.id]!) != reversed
        }
        var rows: [ModelRow] = []
        for (offset, item) in sorted.enumerated() {
            let itemSection = section(item, spec.grouping)
            if let itemSection, offset == 0 || section(sorted[offset - 1], spec.grouping) != itemSection {
                rows.append(.header(itemSection, count: sorted.filter { section($0, spec.grouping) == itemSection }.count))
            }
            rows.append(.item(item.id, section: itemSection))
        }
        return rows
    }

    /// Where a move of `rows[from]` to `to` puts the block, by protocol.md's rule: just after the item of the row
    /// before `to`; when that row is not an item (`to` 0, or a header), just before the item at `to` in the same
    /// section; else at the end of the header's list (grouped by list); else just after the block's last item.
    static func move(_ spec: ModelSpec, _ rows: [ModelRow], from: Range<Int>, to target: Int) -> ModelMove {
        guard spec.sort == .manual else { return .refused("sortedView") }
        let block = Array(rows[from])
        guard block.allSatisfy({ $0.item != nil }) else { return .refused("from") }
        let without = Array(rows[..<from.lowerBound] + rows[from.upperBound...])
        guard target > 0 || spec.grouping == .none || without.isEmpty else { return .refused("to") }
        if target == from.lowerBound { return .nothing }
        let previous = target > 0 ? without[target - 1] : nil
        let next = target < without.count ? without[target] : nil
        let section = previous?.section ?? next?.section ?? block[0].section
        if spec.grouping != .none, spec.grouping != .list, block.contains(where: { $0.section != section }) {
            return .refused("crossSection")
        }
        if let item = previous?.item { return .after(item) }
        if let next, next.section == section, let item = next.item { return .before(item) }
        if case .list(let list)? = section { return .endOf(list) }
        return .after(block.last!.item!)
    }
}
