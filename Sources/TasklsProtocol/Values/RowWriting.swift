/// Rows, window ops, `view/changed` and snapshots written straight into output bytes, byte for byte what their
/// `json` writes, with no `JSON` value built for a row.

import Wire

extension ItemRow: JSONWritable {
    /// Writes the row's members in `json`'s order, each key a precomputed literal.
    /// - Complexity: O(length of the output).
    public func write(to writer: inout JSONWriter) {
        writer.raw(#"{"kind":"item","id":"#)
        writer.string(letter: UInt8(ascii: "i"), decimal: id.rawValue)
        writer.raw(#","list":"#)
        writer.string(letter: UInt8(ascii: "l"), decimal: list.rawValue)
        writer.raw(#","parent":"#)
        if let parent { writer.string(letter: UInt8(ascii: "i"), decimal: parent.rawValue) } else { writer.null() }
        writer.raw(#","depth":"#)
        writer.integer(depth)
        writer.raw(#","title":"#)
        writer.string(title)
        writer.raw(#","done":"#)
        writer.bool(done)
        writer.raw(#","due":"#)
        if let due { writer.string(due) } else { writer.null() }
        if let dueLocal {
            writer.raw(#","dueLocal":"#)
            writer.string(dueLocal)
        }
        writer.raw(#","priority":"#)
        writer.string(priority.rawValue)
        writer.raw(#","tags":"#)
        writer.array(tags)
        writer.raw(#","hasNotes":"#)
        writer.bool(hasNotes)
        writer.raw(#","children":"#)
        writer.integer(children)
        writer.raw(#","openChildren":"#)
        writer.integer(openChildren)
        writer.raw(#","hasChildren":"#)
        writer.bool(hasChildren)
        writer.raw(#","collapsed":"#)
        writer.bool(collapsed)
        writer.raw(#","context":"#)
        writer.bool(context)
        writer.raw(#","revision":"#)
        writer.counter(revision)
        writer.raw(#","repeat":"#)
        if let `repeat` { writer.value(`repeat`.json) } else { writer.null() }
        writer.raw(#","hasAlerts":"#)
        writer.bool(hasAlerts)
        writer.raw(UInt8(ascii: "}"))
    }
}

extension HeaderRow: JSONWritable {
    /// Writes the row's members in `json`'s order.
    public func write(to writer: inout JSONWriter) {
        writer.raw(#"{"kind":"header","id":"#)
        writer.string(id)
        writer.raw(#","title":"#)
        writer.string(title)
        writer.raw(#","count":"#)
        writer.integer(count)
        writer.raw(UInt8(ascii: "}"))
    }
}

extension Row: JSONWritable {
    /// Writes the item or header row.
    @inline(__always)
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .item(let row): row.write(to: &writer)
        case .header(let row): row.write(to: &writer)
        }
    }
}

extension WindowOperation: JSONWritable {
    /// Writes the op's members in `json`'s order.
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .insert(let index, let row):
            writer.raw(#"{"op":"insert","index":"#)
            writer.integer(index)
            writer.raw(#","row":"#)
            row.write(to: &writer)
        case .remove(let index):
            writer.raw(#"{"op":"remove","index":"#)
            writer.integer(index)
        case .move(let from, let to, let row):
            writer.raw(#"{"op":"move","from":"#)
            writer.integer(from)
            writer.raw(#","to":"#)
            writer.integer(to)
            if let row {
                writer.raw(#","row":"#)
                row.write(to: &writer)
            }
        case .update(let index, let row):
            writer.raw(#"{"op":"update","index":"#)
            writer.integer(index)
            writer.raw(#","row":"#)
            row.write(to: &writer)
        case .reset(let rows):
            writer.raw(#"{"op":"reset","rows":"#)
            writer.array(rows)
        }
        writer.raw(UInt8(ascii: "}"))
    }
}

extension ViewChanged: JSONWritable {
    /// Writes the params in `json`'s order; the rows straight into the bytes.
    /// - Complexity: O(length of the output).
    public func write(to writer: inout JSONWriter) {
        writeViewHead(view: view, version: version, state: state, count: count, empty: empty, window: window, to: &writer)
        writer.raw(#"},"ops":"#)
        writer.array(ops)
        writer.raw(UInt8(ascii: "}"))
    }

    /// The whole notification as a message body: the bytes `JSONSerializer` writes for `message`, without building
    /// it as `JSON`.
    /// - Complexity: O(length of the output).
    public func write(messageTo writer: inout JSONWriter) {
        JSONSerializer.writeNotification(method: Self.method, params: self, into: &writer)
    }
}

extension ViewSnapshotResult: JSONWritable {
    /// Writes the result in `json`'s order; the rows straight into the bytes, the few other members through `JSON`.
    /// - Complexity: O(length of the output).
    public func write(to writer: inout JSONWriter) {
        writeViewHead(view: view, version: version, state: state, count: count, empty: empty, window: window, to: &writer)
        writer.raw(#"},"sort":"#)
        writer.value(sort.json)
        writer.raw(#","filter":"#)
        writer.value(filter.json)
        writer.raw(#","sections":"#)
        writer.value(sections.json)
        var source = JSONObject()
        self.source.write(into: &source)
        for member in source.members {
            writer.raw(UInt8(ascii: ","))
            writer.string(member.key)
            writer.raw(UInt8(ascii: ":"))
            writer.value(member.value)
        }
        writer.raw(#","rows":"#)
        writer.array(rows)
        writer.raw(UInt8(ascii: "}"))
    }
}

/// Writes what a change and a snapshot of a view begin with, in their `json`'s order: `{"view":…,"version":…`, the
/// state's members, `"count"`, `"empty"` when there is one, and the window up to its `end` (the caller closes it).
private func writeViewHead(view: ViewID, version: UInt64, state: ViewState, count: Int?, empty: EmptyReason?, window: Window,
                           to writer: inout JSONWriter) {
    writer.raw(#"{"view":"#)
    writer.string(letter: UInt8(ascii: "v"), decimal: view.rawValue)
    writer.raw(#","version":"#)
    writer.counter(version)
    state.write(to: &writer)
    writer.raw(#","count":"#)
    if let count { writer.integer(count) } else { writer.null() }
    if let empty {
        writer.raw(#","empty":"#)
        writer.string(empty.rawValue)
    }
    writer.raw(#","window":{"start":"#)
    writer.integer(window.start)
    writer.raw(#","end":"#)
    writer.integer(window.end)
}

extension ViewState {
    /// Writes `,"state":…` (and `progress` or `error`), as `write(into:)` adds them to an object.
    func write(to writer: inout JSONWriter) {
        switch self {
        case .ready: writer.raw(#","state":"ready""#)
        case .loading(let progress):
            writer.raw(#","state":"loading","progress":"#)
            writer.value(.double(progress))
        case .closed: writer.raw(#","state":"closed""#)
        case .error(let error):
            writer.raw(#","state":"error","error":"#)
            writer.value(error.json)
        }
    }
}

extension JSONWriter {
    /// Writes a counter as `UInt64.json` does (clamped to `Int64.max`).
    @inline(__always)
    mutating func counter(_ value: UInt64) {
        unsigned(min(value, UInt64(Int64.max)))
    }
}
