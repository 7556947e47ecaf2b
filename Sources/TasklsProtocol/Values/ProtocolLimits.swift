/// The protocol's limits that a message's shape alone can break, checked when params are read.

/// Bounds checked by the protocol types' decoders (the same values as the server's domain limits).
public enum ProtocolLimits {
    /// Most rows a view's window may span (`end - start`).
    public static let windowRows = 1_000
    /// Most ids one request may name (`ids` of `lists/move`, `items/update`, `items/delete`, `items/move`).
    public static let idsPerRequest = 100_000
}
