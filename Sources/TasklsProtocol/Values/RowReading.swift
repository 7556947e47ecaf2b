/// Rows, window ops and `view/changed` read straight from the bytes with `JSONPullReader`: no `JSON` tree is built
/// for a row. A fast path only: whatever it does not take is read by the types' `init(json:path:)`, the reference.

import Wire

extension ItemRow {
    private static let keys = JSONKeys([
        "kind", "id", "list", "parent", "depth", "title", "done", "due", "dueLocal", "priority", "tags", "hasNotes",
        "children", "openChildren", "hasChildren", "collapsed", "context", "revision", "repeat", "hasAlerts",
    ])
    /// Every member but `dueLocal` (index 8) is required.
    private static let required: UInt32 = (1 << 20 - 1) & ~(1 << 8)

    /// Reads the members after `"kind":"item"` of the open object, through its end; the same value the reference
    /// reads, or a stop for anything it might refuse or read differently (a repeated or unknown member, a number
    /// that is not a plain integer, a member missing).
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        var id = ItemID(0), list = ListID(0), parent: ItemID?, depth = 0, title = "", done = false, due: String?
        var dueLocal: String?, priority = Priority.none, tags: [String] = [], hasNotes = false, children = 0
        var openChildren = 0, hasChildren = false, collapsed = false, context = false, revision: UInt64 = 0
        var repeatRule: Repeat?, hasAlerts = false
        var seen: UInt32 = 1
        var expected = 1
        let keys = Self.keys
        while let index = try reader.nextMember(keys, expecting: expected) {
            let bit: UInt32 = 1 << UInt32(index)
            guard seen & bit == 0 else { throw JSONPullReader.Stop() }
            seen |= bit
            expected = index + 1
            switch index {
            case 1: id = try ItemID(pulling: &reader)
            case 2: list = try ListID(pulling: &reader)
            case 3: parent = try reader.null() ? nil : try ItemID(pulling: &reader)
            case 4: depth = try reader.nonNegative()
            case 5: title = try reader.string()
            case 6: done = try reader.bool()
            case 7: due = try reader.null() ? nil : try reader.string()
            case 8: dueLocal = try reader.string()
            case 9: priority = try Priority(pulling: &reader)
            case 10:
                try reader.beginArray()
                while try reader.nextElement() { tags.append(try reader.string()) }
            case 11: hasNotes = try reader.bool()
            case 12: children = try reader.nonNegative()
            case 13: openChildren = try reader.nonNegative()
            case 14: hasChildren = try reader.bool()
            case 15: collapsed = try reader.bool()
            case 16: context = try reader.bool()
            case 17: revision = UInt64(try reader.nonNegative())
            case 18: repeatRule = try reader.null() ? nil : try reader.decoded(Repeat.self)
            case 19: hasAlerts = try reader.bool()
            default: throw JSONPullReader.Stop()
            }
        }
        guard seen & Self.required == Self.required else { throw JSONPullReader.Stop() }
        self.init(id: id, list: list, parent: parent, depth: depth, title: title, done: done, due: due, dueLocal: dueLocal,
                  priority: priority, tags: tags, hasNotes: hasNotes, children: children, openChildren: openChildren,
                  hasChildren: hasChildren, collapsed: collapsed, context: context, revision: revision, repeat: repeatRule,
                  hasAlerts: hasAlerts)
    }
}

extension HeaderRow {
    private static let keys = JSONKeys(["kind", "id", "title", "count"])

    /// Reads the members after `"kind":"header"` of the open object, through its end (see `ItemRow`'s).
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        var id = "", title = "", count = 0
        var seen: UInt32 = 1
        let keys = Self.keys
        while let index = try reader.nextMember(keys) {
            let bit: UInt32 = 1 << UInt32(index)
            guard seen & bit == 0 else { throw JSONPullReader.Stop() }
            seen |= bit
            switch index {
            case 1: id = try reader.string()
            case 2: title = try reader.string()
            case 3: count = try reader.int()
            default: throw JSONPullReader.Stop()
            }
        }
        guard seen == 0b1111 else { throw JSONPullReader.Stop() }
        self.init(id: id, title: title, count: count)
    }
}

extension Row {
    private static let kindKey = JSONKeys(["kind"])

    /// Reads a row whose first member is `kind` (as the server writes them); any other order stops.
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        try reader.beginObject()
        guard try reader.nextMember(Self.kindKey) == 0 else { throw JSONPullReader.Stop() }
        if reader.skip(#""item""#) {
            self = .item(try ItemRow(pulling: &reader))
        } else if reader.skip(#""header""#) {
            self = .header(try HeaderRow(pulling: &reader))
        } else {
            throw JSONPullReader.Stop()
        }
    }

    /// Reads an array of rows.
    static func array(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(64)
        try reader.beginArray()
        while try reader.nextElement() { rows.append(try Row(pulling: &reader)) }
        return rows
    }
}

extension WindowOperation {
    private static let keys = JSONKeys(["op", "index", "row", "from", "to", "rows"])

    /// Reads an op whose first member is `op` (as the server writes them); any other order stops.
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        try reader.beginObject()
        guard try reader.nextMember(Self.keys) == 0 else { throw JSONPullReader.Stop() }
        let op = try reader.string()
        // The members each op takes beside `op`, as bits of `keys`' indexes, and those it requires.
        let (allowed, required): (UInt32, UInt32)
        switch op {
        case "insert", "update": (allowed, required) = (0b110, 0b110)
        case "remove": (allowed, required) = (0b10, 0b10)
        case "move": (allowed, required) = (0b11100, 0b11000)
        case "reset": (allowed, required) = (0b100000, 0b100000)
        default: throw JSONPullReader.Stop()
        }
        var index = 0, from = 0, to = 0, row: Row?, rows: [Row] = []
        var seen: UInt32 = 0
        let keys = Self.keys
        while let key = try reader.nextMember(keys) {
            let bit: UInt32 = 1 << UInt32(key)
            guard allowed & bit != 0, seen & bit == 0 else { throw JSONPullReader.Stop() }
            seen |= bit
            switch key {
            case 1: index = try reader.int()
            case 2: row = try Row(pulling: &reader)
            case 3: from = try reader.int()
            case 4: to = try reader.int()
            default: rows = try Row.array(pulling: &reader)
            }
        }
        guard seen & required == required else { throw JSONPullReader.Stop() }
        switch op {
        case "insert": self = .insert(index: index, row: row.unsafelyUnwrapped)
        case "update": self = .update(index: index, row: row.unsafelyUnwrapped)
        case "remove": self = .remove(index: index)
        case "move": self = .move(from: from, to: to, row: row)
        default: self = .reset(rows: rows)
        }
    }
}

extension ViewChanged {
    private static let keys = JSONKeys(["ops", "view", "version", "state", "progress", "error", "count", "empty", "window"])

    /// Reads the params object: its ops straight from the bytes, its few other members as `JSON` read by the
    /// reference (`init(_:ops:)`), so only the rows skip the tree.
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        try reader.beginObject()
        var others = JSONObject()
        others.members.reserveCapacity(8)
        var ops: [WindowOperation]?
        var seen: UInt32 = 0
        while let key = try reader.nextMember(Self.keys) {
            let bit: UInt32 = 1 << UInt32(key)
            guard seen & bit == 0 else { throw JSONPullReader.Stop() }
            seen |= bit
            if key == 0 {
                var operations: [WindowOperation] = []
                try reader.beginArray()
                while try reader.nextElement() { operations.append(try WindowOperation(pulling: &reader)) }
                ops = operations
            } else {
                others.members.append((key: Self.keys.name(key), value: try reader.value()))
            }
        }
        guard let ops else { throw JSONPullReader.Stop() }
        do {
            try self.init(ObjectReader(.object(others)), ops: ops)
        } catch {
            throw JSONPullReader.Stop()
        }
    }
}

extension ServerNotification {
    private static let envelopeKeys = JSONKeys(["jsonrpc", "method", "params"])

    /// Reads a message body (its bytes, without the header) that should be a notification from the server:
    /// `view/changed` straight from the bytes when it is written as the server writes it (`method` before
    /// `params`), anything else through `Message.decode` and `init(method:params:)`, the reference, which gives
    /// the same value and refuses exactly what it refuses, with the same errors.
    /// - Throws: the reference's error: `-32700` for bytes that are not JSON, `-32600` for JSON that is not a
    ///   notification, `-32601` for a method the server never sends, `-32602` naming the member for bad params.
    /// - Complexity: O(n) in the body's length.
    public static func decode(body: UnsafeRawBufferPointer) throws(ResponseError) -> ServerNotification {
        if let change = pullViewChanged(body: body) { return .viewChanged(change) }
        return try decodeByReference(body: body)
    }

    /// The fast path alone: the `view/changed` in `body`, or nil when it does not take the body (the reference then
    /// reads it). Internal, so the tests can check it takes what it should and agrees with the reference.
    static func pullViewChanged(body: UnsafeRawBufferPointer) -> ViewChanged? {
        JSONPullReader.read(body) { (reader: inout JSONPullReader) throws(JSONPullReader.Stop) -> ViewChanged in
            try reader.beginObject()
            var seen: UInt32 = 0
            var change: ViewChanged?
            while let key = try reader.nextMember(envelopeKeys) {
                let bit: UInt32 = 1 << UInt32(key)
                guard seen & bit == 0 else { throw JSONPullReader.Stop() }
                seen |= bit
                switch key {
                case 0: guard try reader.string() == "2.0" else { throw JSONPullReader.Stop() }
                case 1: guard try reader.string() == ViewChanged.method else { throw JSONPullReader.Stop() }
                default:
                    guard seen & 0b10 != 0 else { throw JSONPullReader.Stop() }
                    change = try ViewChanged(pulling: &reader)
                }
            }
            guard seen == 0b111, let change else { throw JSONPullReader.Stop() }
            return change
        }
    }

    /// The reference: the body decoded as a `Message`, then its params by their type.
    static func decodeByReference(body: UnsafeRawBufferPointer) throws(ResponseError) -> ServerNotification {
        switch Message.decode(body) {
        case .failure(let failure): throw failure.error
        case .success(.notification(let method, let params)): return try ServerNotification(method: method, params: params)
        case .success: throw ResponseError(.invalidRequest, "expected a notification from the server")
        }
    }
}

extension JSONPullReader {
    /// A non-negative integer (`ObjectReader.nonNegative`'s values, written as plain integers).
    mutating func nonNegative() throws(Stop) -> Int {
        let value = try integer()
        guard value >= 0 else { throw Stop() }
        return Int(value)
    }

    /// An integer (`Int`'s values, written as plain integers).
    mutating func int() throws(Stop) -> Int {
        Int(try integer())
    }

    /// A value read as `JSON` and decoded by its type's reference decoder.
    mutating func decoded<Value: JSONDecodable>(_ type: Value.Type) throws(Stop) -> Value {
        let json = try value()
        do { return try Value(json: json, path: "") } catch { throw Stop() }
    }
}

extension ItemID {
    /// Reads the string that must come next as an item id (the reference's rules).
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        self = try pullIdentifier(&reader, letter: UInt8(ascii: "i"), ItemID.init)
    }
}

extension ListID {
    /// Reads the string that must come next as a list id (the reference's rules).
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        self = try pullIdentifier(&reader, letter: UInt8(ascii: "l"), ListID.init)
    }
}

/// The id that must come next: spelled as the server spells it (`letter`, then 1 to 19 ASCII digits, the first not
/// 0), its number read from the bytes and made into an id by `make`; any other string read by the reference
/// (`init(json:path:)`), which accepts those spellings with the same value and refuses the rest (a stop).
/// - Complexity: O(length).
private func pullIdentifier<Identifier: JSONDecodable>(
    _ reader: inout JSONPullReader, letter: UInt8, _ make: (UInt64) -> Identifier
) throws(JSONPullReader.Stop) -> Identifier {
    if let raw = reader.letterAndDecimal(letter) { return make(raw) }
    let text = try reader.string()
    do { return try Identifier(json: .string(text), path: "") } catch { throw JSONPullReader.Stop() }
}

extension Priority {
    /// Reads the string that must come next as a priority.
    init(pulling reader: inout JSONPullReader) throws(JSONPullReader.Stop) {
        if reader.skip(#""none""#) {
            self = .none
        } else if reader.skip(#""medium""#) {
            self = .medium
        } else if reader.skip(#""high""#) {
            self = .high
        } else if reader.skip(#""low""#) {
            self = .low
        } else {
            guard let priority = Priority(rawValue: try reader.string()) else { throw JSONPullReader.Stop() }
            self = priority
        }
    }
}
