/// Values of LSP's `InitializeParams` that taskls reads: `trace` and `workDoneToken`.

import Wire

/// LSP's `TraceValue`.
public enum Trace: String, CaseIterable, ProtocolValue, Hashable {
    /// No tracing.
    case off
    /// Messages only.
    case messages
    /// Messages with details.
    case verbose

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "expected off, messages or verbose, got '\($0)'" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("Trace", doc: "LSP's TraceValue.", [
        .init("off", "No tracing."), .init("messages", "Messages only."), .init("verbose", "Messages with details."),
    ])
}

/// LSP's `ProgressToken`: an integer or a string.
public enum ProgressToken: ProtocolValue, Hashable {
    /// An integer token.
    case integer(Int64)
    /// A string token.
    case string(String)

    public init(json: JSON, path: String) throws(ResponseError) {
        switch json {
        case .integer(let value): self = .integer(value)
        case .string(let value): self = .string(value)
        default: throw .invalidParams("\(path): expected an integer or a string, got \(json.typeDescription)")
        }
    }

    public var json: JSON {
        switch self {
        case .integer(let value): .integer(value)
        case .string(let value): .string(value)
        }
    }

    public static let schema = TypeSchema(
        name: "ProgressToken", doc: "LSP's ProgressToken: an integer or a string.", shape: .value(.oneOf([.integer, .string])))
}
