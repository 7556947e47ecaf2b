/// The protocol's limits that a message's shape alone can break, checked when params are read.

/// Bounds checked by the protocol types' decoders (the same values as the server's domain limits).
public enum ProtocolLimits {
    /// Most rows a view's window may span (`end - start`).
    public static let windowRows = 1_000
    /// Most ids one request may name (`ids` of `lists/move`, `items/update`, `items/delete`, `items/duplicate`,
    /// `items/move`, `items/indent`, `items/outdent`, `view/collapse`, `view/expand`).
    public static let idsPerRequest = 100_000
    /// The deepest a subtask may be: an item's depth (its number of ancestors) is at most 15, so a list's tree
    /// has at most 16 levels. Rows carry `depth`; the server refuses deeper trees with `tooDeep`.
    public static let maxDepth = 15
}
