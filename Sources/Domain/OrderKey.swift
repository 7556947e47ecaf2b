// OrderKey: the key every view order index stores, one type for all sorts, compared without locale.

/// An item's place in one sort: section, then (when it leads) the list's position, then the primary value (a
/// number, or the folded title, or the manual position), then the manual order (the list's position when it
/// breaks ties, then the position, ascending), then id. All keys in one index come from one `IndexSpec`.
///
/// Made for the comparisons a tree search makes: the primary value, or the first 8 bytes of it, is one
/// number already adjusted for direction, and the position is inline too (`Position`), so most
/// comparisons compare integers and never read the byte arrays.
struct OrderKey: IndexKey {
    // Stored properties: the 8-byte ones first, then the 4-byte ones, then the flags, so the key takes 80 bytes
    // (`PositionTests.layoutsStayCompact`). Only `payload` and `listPosition` count references, and a position
    // longer than 15 bytes (rare: `Position`).

    /// The primary value, ordered so that smaller sorts first: for numeric sorts the value (negated when
    /// descending; `Int64.max` for an item without a due date, last in either direction); for title and
    /// manual sorts the first 8 bytes of the title or position (complemented when descending).
    var number: Int64
    /// In a title sort, bytes 8 to 15 of the folded title, big-endian, zero-padded (complemented when
    /// descending), compared when `number` ties; 0 otherwise. With it, titles that share their first
    /// 8 bytes are still told apart without reading `text`.
    var textSecondPrefix: UInt64
    /// The title with its folded key in a title sort (`text`), or the item itself in a manual order's key
    /// (`record`): never both, so they share one reference.
    private var payload: Payload = .none
    /// The item's manual position: the primary value of a manual sort, the first tie-breaker of the others.
    var position: Position
    /// The item's id: the last tie-breaker, always ascending.
    var item: ItemID
    /// The list's position in a smart group or a view grouped by list; nil otherwise. Compared right after
    /// `section` when `listLeads`, else right after the primary value (the first tie-breaker of a sorted smart
    /// group, always ascending).
    var listPosition: [UInt8]? = nil
    /// The section's rank in a grouped view (compared first); 0 otherwise.
    var section: Int32 = 0
    /// The rows this key stands for (`weight`), stored in 32 bits where it fits beside the fields above. Not
    /// part of `<` or `==`.
    private var storedWeight: Int32 = 1
    /// Whether `text`, or the position of a manual sort, runs largest first.
    var descending: Bool
    /// Whether this is a manual sort's key (its position is then the primary value, in `descending` order).
    var manual: Bool
    /// Whether `listPosition` is compared before the primary value: grouped by list, or a smart group in manual
    /// order (lists' order, then each list's order).
    var listLeads = false
    /// Whether a leading `listPosition` runs largest first: a smart group in manual descending order, not
    /// grouped by list (the whole manual order reversed; sections by list keep the lists' order).
    var listDescending = false
    /// Whether the entry is in its tree order only as an ancestor of a matching item (it does not match itself).
    /// Not part of `<` or `==`.
    var context = false

    /// The title in a title sort, whose folded key is compared (the item's own `titleText`); nil otherwise.
    var text: TitleText? {
        get {
            if case .text(let title) = payload { return title }
            return nil
        }
        set { payload = newValue.map { .text($0) } ?? .none }
    }

    /// The item itself, in the keys of `TaskState`'s manual orders (so a snapshot of an order carries its
    /// items); nil in other indexes and in keys built to search. Not part of the key's identity.
    var record: ItemRecord? {
        get {
            if case .record(let record) = payload { return record }
            return nil
        }
        set { payload = newValue.map { .record($0) } ?? .none }
    }

    /// What `payload` holds.
    private enum Payload: Sendable {
        case none
        case text(TitleText)
        case record(ItemRecord)
    }

    /// The rows this key stands for in its index: 1 unless set. Not part of `<` or `==`.
    var weight: Int {
        get { Int(storedWeight) }
        set { storedWeight = Int32(newValue) }
    }

    /// The key of `item` in `sort`.
    /// - Complexity: O(1) (the title's folded key is precomputed on the item).
    init(_ item: Item, _ sort: Sort) {
        let descending = sort.direction == .descending
        number = 0
        textSecondPrefix = 0
        position = item.position
        self.item = item.id
        self.descending = descending
        manual = false
        switch sort.field {
        case .manual:
            manual = true
            number = OrderKey.signed(position.high, descending: descending)
        case .title:
            text = item.titleText
            number = OrderKey.signed(item.titleText.foldedPrefix(), descending: descending)
            let second = item.titleText.foldedPrefix(from: 8)
            textSecondPrefix = descending ? ~second : second
        case .due: number = item.due.map { descending ? -$0.sortValue : $0.sortValue } ?? Int64.max
        case .priority: number = Int64(descending ? -item.priority.rank : item.priority.rank)
        case .created: number = descending ? -item.createdAt.milliseconds : item.createdAt.milliseconds
        case .modified: number = descending ? -item.modifiedAt.milliseconds : item.modifiedAt.milliseconds
        }
    }

    /// The key of `item` in its list's manual order, ascending (the index `TaskState` keeps per list),
    /// carrying `record` when it is to be stored there.
    init(manual item: Item, record: ItemRecord? = nil) {
        self.init(manualPosition: item.position, item: item.id)
        self.record = record
    }

    /// The key of the item at `position` in its list's manual order, ascending, without its record: a key to
    /// search with, made from the two fields it needs (so that an item stored elsewhere is not copied whole).
    /// - Complexity: O(1).
    init(manualPosition position: Position, item: ItemID) {
        number = OrderKey.signed(position.high, descending: false)
        textSecondPrefix = 0
        self.position = position
        self.item = item
        descending = false
        manual = true
    }

    /// - Complexity: O(1) for numeric sorts; O(common prefix) for titles and positions.
    @inline(__always)
    static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        // Inlined into the tree's searches: sections and primary numbers decide almost every comparison.
        if lhs.section != rhs.section { return lhs.section < rhs.section }
        if lhs.number != rhs.number, !lhs.listLeads || listPositionsTie(lhs, rhs) { return lhs.number < rhs.number }
        return lhs.precedes(rhs)
    }

    /// Whether the list positions cannot decide `lhs < rhs`, seen without reading their bytes: one is absent,
    /// or both are the same array (the keys of one list's items share its position's bytes).
    @inline(__always)
    private static func listPositionsTie(_ lhs: OrderKey, _ rhs: OrderKey) -> Bool {
        guard let left = lhs.listPosition, let right = rhs.listPosition else { return true }
        return left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress && left.count == right.count }
        }
    }

    /// `<` past the section: the leading list position, the primary value and the tie-breakers.
    @inline(never)
    private func precedes(_ rhs: OrderKey) -> Bool {
        let lhs = self
        if lhs.listLeads, let left = lhs.listPosition, let right = rhs.listPosition {
            let order = compareBytes(left, right)
            if order != 0 { return (order < 0) != lhs.listDescending }
        }
        if lhs.number != rhs.number { return lhs.number < rhs.number }
        if lhs.textSecondPrefix != rhs.textSecondPrefix { return lhs.textSecondPrefix < rhs.textSecondPrefix }
        if let left = lhs.text, let right = rhs.text {
            let order = TitleText.compareFolded(left, right)
            if order != 0 { return (order < 0) != lhs.descending }
        }
        if !lhs.listLeads, let left = lhs.listPosition, let right = rhs.listPosition {
            let order = compareBytes(left, right)
            if order != 0 { return order < 0 }
        }
        let positionDescending = lhs.manual && lhs.descending
        let order = Position.compare(lhs.position, rhs.position)
        if order != 0 { return (order < 0) != positionDescending }
        return lhs.item < rhs.item
    }

    /// An unsigned prefix as a signed number in the same order (reversed when descending).
    private static func signed(_ prefix: UInt64, descending: Bool) -> Int64 {
        Int64(bitPattern: (descending ? ~prefix : prefix) ^ (1 << 63))
    }

    static func == (lhs: OrderKey, rhs: OrderKey) -> Bool {
        lhs.item == rhs.item && lhs.number == rhs.number && lhs.textSecondPrefix == rhs.textSecondPrefix
            && lhs.position == rhs.position && textsTie(lhs.text, rhs.text)
            && lhs.descending == rhs.descending && lhs.manual == rhs.manual
            && lhs.section == rhs.section && lhs.listPosition == rhs.listPosition
            && lhs.listLeads == rhs.listLeads && lhs.listDescending == rhs.listDescending
    }
}

/// Whether two keys' titles fold alike (both absent included): what `==` compares of them.
private func textsTie(_ lhs: TitleText?, _ rhs: TitleText?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): true
    case (let left?, let right?): TitleText.compareFolded(left, right) == 0
    default: false
    }
}

/// A list's key in the manual order of lists.
struct ListOrderKey: Comparable, Sendable {
    var position: Position
    var list: ListID

    init(_ list: TaskList) {
        position = list.position
        self.list = list.id
    }

    static func < (lhs: ListOrderKey, rhs: ListOrderKey) -> Bool {
        let order = Position.compare(lhs.position, rhs.position)
        return order != 0 ? order < 0 : lhs.list < rhs.list
    }
}
