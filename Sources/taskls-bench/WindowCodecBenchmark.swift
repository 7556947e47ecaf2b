/// The 50-row window's codec, typed: a `view/changed` body read into `ViewChanged` (rows straight from the bytes)
/// and written back as the server writes it (rows straight into the bytes), beside the generic `JSON` tree.

import TasklsProtocol
import Wire

/// The `view/changed` of `windowMessage(rows:)` as the protocol's types carry it: the same view, version, count,
/// window and row values; each row also has the members `ItemRow` requires that `windowMessage` leaves out (`parent`,
/// `depth`, `hasNotes`, `children`, `openChildren`, `hasChildren`, `collapsed`, `context`, `repeat`, `hasAlerts`, at
/// their empty values), and `state` comes before `count` and `window`, as the server writes it.
func typedWindowChange(rows count: Int) -> ViewChanged {
    var rows: [Row] = []
    for index in 0..<count {
        let title = "Task number \(index) with a realistic title"
        let due: String? = index % 2 == 0 ? "2026-11-24" : nil
        let row = ItemRow(id: ItemID(UInt64(index + 1000)), list: ListID(3), title: title, done: index % 3 == 0, due: due,
                          priority: .medium, tags: ["work"], revision: UInt64(index))
        rows.append(.item(row))
    }
    return ViewChanged(view: ViewID(1), version: 7, state: .ready, count: 100_000, window: Window(start: 0, end: 50),
                       ops: [.reset(rows: rows)])
}

/// The body the server writes for `change`.
func typedWindowMessage(_ change: ViewChanged) -> [UInt8] {
    var writer = JSONWriter()
    change.write(messageTo: &writer)
    return writer.bytes
}

/// Microseconds to read `body` into its typed notification (`ServerNotification.decode(body:)`) and write it back
/// (`ViewChanged.write(messageTo:)`, into one reused buffer), averaged; NaN when the body is not a `view/changed` or
/// does not come back as the same bytes.
func measureTypedRoundTrip(_ body: [UInt8], iterations: Int) -> Double {
    var writer = JSONWriter(capacity: body.count * 2)
    var checksum = 0
    let start = nanoseconds()
    for _ in 0..<iterations {
        let decoded = body.withUnsafeBytes { bytes in try? ServerNotification.decode(body: bytes) }
        guard case .viewChanged(let change)? = decoded else { return .nan }
        writer.removeAll()
        change.write(messageTo: &writer)
        checksum &+= writer.count
    }
    let elapsed = Double(nanoseconds() - start) / 1000 / Double(iterations)
    return checksum == body.count * iterations && writer.bytes == body ? elapsed : .nan
}

/// Microseconds to write `change` as the server writes it, averaged: `typed`, straight into bytes
/// (`ViewChanged.write(messageTo:)`, what the server sends), else as the server wrote it before the typed writers:
/// its `JSON` value built, then serialized. NaN when the two would not be the same bytes.
func measureEncoding(_ change: ViewChanged, typed: Bool, iterations: Int) -> Double {
    var writer = JSONWriter(capacity: 1 << 15)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(1 << 15)
    var checksum = 0
    let start = nanoseconds()
    for _ in 0..<iterations {
        if typed {
            writer.removeAll()
            change.write(messageTo: &writer)
            checksum &+= writer.count
        } else {
            bytes.removeAll(keepingCapacity: true)
            JSONSerializer.write(change.message.json, into: &bytes)
            checksum &+= bytes.count
        }
    }
    let elapsed = Double(nanoseconds() - start) / 1000 / Double(iterations)
    return checksum == typedWindowMessage(change).count * iterations ? elapsed : .nan
}
