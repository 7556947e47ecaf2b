/// A view's filter: which items of its source it shows.

import Wire

/// Which items of its source a view shows. Every member is optional; an absent member, or one at its
/// default (`text: ""`, `done: "any"`, empty tag lists), matches everything and is left out when written.
/// `null` is refused for every member.
public struct Filter: ProtocolValue, Hashable {
    /// Which items by completion.
    public enum Completion: String, CaseIterable, ProtocolValue, Hashable {
        /// Done or not (the default).
        case any
        /// Only done items.
        case done
        /// Only items not done.
        case notDone

        public init(json: JSON, path: String) throws(ResponseError) {
            self = try named(json, path: path) { "expected any, done or notDone, got '\($0)'" }
        }

        public var json: JSON { .string(rawValue) }

        public static let schema = TypeSchema.enumeration("Completion", doc: "Which items a filter keeps by completion.", [
            .init("any", "Done or not (the default)."), .init("done", "Only done items."),
            .init("notDone", "Only items not done."),
        ])
    }

    /// Text the title or notes must contain, ignoring case and diacritics; empty: no condition.
    public var text: String
    /// Which items by completion.
    public var done: Completion
    /// Tags of which an item must carry at least one; empty: no condition.
    public var tagsAnyOf: [String]
    /// Tags an item must all carry; empty: no condition.
    public var tagsAllOf: [String]
    /// The lowest priority an item may have.
    public var priorityAtLeast: Priority?
    /// A due (`YYYY-MM-DD`, or `YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)`) an item's due must be strictly
    /// before, as the due sort compares; the server checks the format.
    public var dueBefore: String?
    /// A due (same format) an item's due must be strictly after.
    public var dueAfter: String?

    /// Makes a filter; the defaults match everything.
    public init(text: String = "", done: Completion = .any, tagsAnyOf: [String] = [], tagsAllOf: [String] = [],
                priorityAtLeast: Priority? = nil, dueBefore: String? = nil, dueAfter: String? = nil) {
        self.text = text
        self.done = done
        self.tagsAnyOf = tagsAnyOf
        self.tagsAllOf = tagsAllOf
        self.priorityAtLeast = priorityAtLeast
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
    }

    /// The filter that matches everything (`{}`).
    public static let all = Filter()

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        done = try fields.optional("done") ?? .any
        text = try fields.optional("text") ?? ""
        tagsAnyOf = try fields.optional("tagsAnyOf") ?? []
        tagsAllOf = try fields.optional("tagsAllOf") ?? []
        priorityAtLeast = try fields.optional("priorityAtLeast")
        dueBefore = try fields.optional("dueBefore")
        dueAfter = try fields.optional("dueAfter")
    }

    /// The filter with the members at their defaults left out.
    public var json: JSON {
        var object = JSONObject()
        if !text.isEmpty { object["text"] = .string(text) }
        if done != .any { object["done"] = done.json }
        if !tagsAnyOf.isEmpty { object["tagsAnyOf"] = tagsAnyOf.json }
        if !tagsAllOf.isEmpty { object["tagsAllOf"] = tagsAllOf.json }
        object["priorityAtLeast"] = priorityAtLeast?.json
        object["dueBefore"] = dueBefore.map(JSON.string)
        object["dueAfter"] = dueAfter.map(JSON.string)
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "Filter", doc: "Which items of its source a view shows; an absent member matches everything, and so does one at its default (left out when the server echoes the filter).", [
            .optional("text", .string, "Text the title or notes must contain, ignoring case and diacritics (\"cafe\" finds \"Café\"); default \"\"."),
            .optional("done", Completion.schema.reference, "Which items by completion; default any."),
            .optional("tagsAnyOf", .array(.string), "Tags of which an item must carry at least one (case-sensitive, not trimmed); default []: no condition."),
            .optional("tagsAllOf", .array(.string), "Tags an item must all carry; default []: no condition."),
            .optional("priorityAtLeast", Priority.schema.reference, "The lowest priority an item may have."),
            .optional("dueBefore", .string, "A due (YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)) an item's due must be strictly before, as the due sort compares; items without a due never match."),
            .optional("dueAfter", .string, "A due (same format) an item's due must be strictly after; items without a due never match."),
        ])
}
