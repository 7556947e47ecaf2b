// IndexKey: what OrderedIndex stores, a key that stands for `weight` rows; and the key types whose weights are all 1.

/// A key of an `OrderedIndex`: ordered, and standing for `weight` rows (an entry and its visible
/// descendants, say), so that the index's ranks count rows rather than keys.
///
/// `weight` is not part of the key's identity: `<` and `==` must not read it, so that a key can be found
/// (and its weight changed by `OrderedIndex.replace`) whatever weight the caller's copy of it carries.
public protocol IndexKey: Comparable, Sendable {
    /// The number of rows this key stands for: at least 1 and below 2^31 (checked when the key is stored),
    /// and exactly 1 when `hasUnitWeights`.
    var weight: Int { get }

    /// Whether every key of this type weighs 1. Then the index keeps no weights in its leaves and its
    /// searches never read one, so a type that knows this runs as fast as an unweighted index.
    /// `false` unless the type says otherwise.
    static var hasUnitWeights: Bool { get }
}

extension IndexKey {
    /// Keys may weigh more than 1 unless their type says otherwise.
    public static var hasUnitWeights: Bool { false }
}

extension Int: IndexKey {
    /// An integer stands for one row.
    public var weight: Int { 1 }
    /// Every integer weighs 1.
    public static var hasUnitWeights: Bool { true }
}

extension ListOrderKey: IndexKey {
    /// A list is one row of the order of lists.
    var weight: Int { 1 }
    /// Every list weighs 1.
    static var hasUnitWeights: Bool { true }
}

extension DueKey: IndexKey {
    /// An item's due is one entry of the dues index.
    var weight: Int { 1 }
    /// Every due weighs 1.
    static var hasUnitWeights: Bool { true }
}
