// Identifiers of lists, items, views and index builds: opaque, stable, never reused.

/// The identifier of a task list.
///
/// Chosen by whoever builds the mutation that creates the list (usually from
/// `TaskState.nextIdentifier`) and carried inside it, so every process that
/// replays the mutation creates the same list. Never reused after deletion.
public struct ListID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw value, as it appears on the wire.
    public var rawValue: UInt64

    /// Wraps a raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identifiers by their raw value.
    public static func < (lhs: ListID, rhs: ListID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id as the wire writes it: `l` and the raw value in decimal (`l3`).
    public var description: String { "l" + String(rawValue) }
}

/// The identifier of an item (a task).
///
/// Chosen by the caller and carried inside the creating mutation, exactly like `ListID`;
/// lists and items draw from one counter, so an item never shares a raw value with a list.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw value, as it appears on the wire.
    public var rawValue: UInt64

    /// Wraps a raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identifiers by their raw value.
    public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Hashes as its raw value does, in the standard library's one-shot path for one integer (the synthesized
    /// `hash(into:)` feeds a whole `Hasher`): items are looked up by id in every mutation, many times.
    public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }

    /// The id as the wire writes it: `i` and the raw value in decimal (`i42`).
    public var description: String { "i" + String(rawValue) }
}

/// The identifier of an open view, assigned by `Engine.openView` in increasing order.
public struct ViewID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw value, as it appears on the wire.
    public var rawValue: UInt64

    /// Wraps a raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identifiers by their raw value (the order views were opened in).
    public static func < (lhs: ViewID, rhs: ViewID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id as the wire writes it: `v` and the raw value in decimal (`v1`).
    public var description: String { "v" + String(rawValue) }
}

/// The identifier of a background index build, matching an `IndexBuild` to its `BuiltIndex`.
public struct BuildID: Hashable, Sendable {
    /// The raw value.
    public var rawValue: UInt64

    /// Wraps a raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
}
