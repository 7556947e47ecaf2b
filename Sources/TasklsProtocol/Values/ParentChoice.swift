/// Where `items/create` and `items/move` by id put items in the tree: their `parent` member, which tells absent
/// from `null`.

import Wire

/// The `parent` member of `items/create` and `items/move` by id: absent, `null` (the top level) or an item.
public enum ParentChoice: Sendable, Hashable {
    /// `parent` absent: the parent of `before` when `before` is an item, else the top level.
    case unspecified
    /// `parent: null`: the top level of the list; with `before`, `before` must be at the top level.
    case topLevel
    /// `parent: ITEM_ID`: subtasks of that item; with `before`, `before` must be one of its subtasks.
    case item(ItemID)

    /// The item named, if any.
    public var item: ItemID? {
        if case .item(let id) = self { return id }
        return nil
    }

    /// Reads the member `key` of `fields`: absent, `null` or an item id (anything else is refused naming it).
    init(_ fields: ObjectReader, _ key: String) throws(ResponseError) {
        switch try fields.patch(key, as: ItemID.self) {
        case .unchanged: self = .unspecified
        case .cleared: self = .topLevel
        case .set(let id): self = .item(id)
        }
    }

    /// Writes the member `key` into `object`: left out when unspecified, `null` for the top level.
    func write(_ key: String, into object: inout JSONObject) {
        switch self {
        case .unspecified: break
        case .topLevel: object[key] = .null
        case .item(let id): object[key] = id.json
        }
    }
}
