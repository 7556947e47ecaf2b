/// A view's window: the rows a client shows.

import Wire

/// `{"start": S, "end": E}`: the half-open range `[start, end)` of view indexes a client shows, at
/// most `ProtocolLimits.windowRows` rows; it may reach past the end of the view.
public struct Window: ProtocolValue, Hashable {
    /// The first index; not negative.
    public var start: Int
    /// One past the last index; not less than `start`.
    public var end: Int

    /// Makes a window (the decoder refuses what the protocol does: `start < 0`, `end < start`, a span over the limit).
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        start = try fields.required("start")
        end = try fields.required("end")
        guard start >= 0 else { throw .invalidParams("\(fields.path("start")): must not be negative") }
        guard end >= start else { throw .invalidParams("\(fields.path("end")): must not be less than start") }
        guard end - start <= ProtocolLimits.windowRows else {
            throw .invalidParams("\(path): must span at most \(ProtocolLimits.windowRows) rows, got \(end - start)")
        }
    }

    public var json: JSON { ["start": .integer(Int64(start)), "end": .integer(Int64(end))] }

    public static let schema = TypeSchema.object(
        "Window", doc: "The half-open range [start, end) of view indexes a client shows; at most 1,000 rows; it may reach past the end of the view.", [
            .required("start", .integer, "The first index; not negative."),
            .required("end", .integer, "One past the last index; not less than start, at most start + 1000."),
        ])
}
