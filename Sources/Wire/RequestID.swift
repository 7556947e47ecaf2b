/// The id of a JSON-RPC request: an integer or a string, never anything else.

/// A request id. LSP allows integers and strings; pytest-lsp sends UUID strings.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    /// An integer id, as most clients send.
    case integer(Int64)
    /// A string id, such as a UUID.
    case string(String)

    /// The id as JSON.
    public var json: JSON {
        switch self {
        case .integer(let value): .integer(value)
        case .string(let value): .string(value)
        }
    }

    /// The id in `json`, or `nil` when it is not an integer or a string.
    public init?(_ json: JSON) {
        switch json {
        case .integer(let value): self = .integer(value)
        case .string(let value): self = .string(value)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}
