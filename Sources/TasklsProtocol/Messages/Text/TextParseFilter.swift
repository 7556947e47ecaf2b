/// `text/parseFilter` (request): the filter a person meant by a line of filter words, with its spans and warnings.

import Wire

/// `text/parseFilter` params: `{"text": TEXT}`.
public struct TextParseFilter: RequestMessage, Hashable {
    public typealias Result = TextParseFilterResult
    public static let method = "text/parseFilter"

    /// What the person typed.
    public var text: String

    /// Makes the params.
    public init(text: String) { self.text = text }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        text = try fields.required("text")
    }

    public var json: JSON { ["text": .string(text)] }

    public static let schema = TypeSchema.object("TextParseFilter", doc: "text/parseFilter params.", [
        .required("text", .string, "What the person typed (the filter grammar of protocol.md)."),
    ])
}

/// What `text/parseFilter` answers: a filter as `lists/open` and `view/filter` take it.
public struct TextParseFilterResult: ProtocolValue, Hashable {
    /// The filter (members at their defaults left out).
    public var filter: Filter
    /// Every token, in text order.
    public var spans: [TextSpan]
    /// What could not be used as it seemed meant, in text order.
    public var warnings: [TextWarning]

    /// Makes the result.
    public init(filter: Filter, spans: [TextSpan], warnings: [TextWarning]) {
        self.filter = filter
        self.spans = spans
        self.warnings = warnings
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        filter = try fields.required("filter")
        spans = try fields.required("spans")
        warnings = try fields.required("warnings")
    }

    public var json: JSON { ["filter": filter.json, "spans": spans.json, "warnings": warnings.json] }

    public static let schema = TypeSchema.object("TextParseFilterResult", doc: "text/parseFilter's result.", [
        .required("filter", Filter.schema.reference, "The filter, as lists/open and view/filter take it."),
        .required("spans", .array(TextSpan.schema.reference), "Every token, in text order: disjoint, and together they hold every character that is not white space."),
        .required("warnings", .array(TextWarning.schema.reference), "What could not be used as it seemed meant, in text order; empty when all was."),
    ])
}
