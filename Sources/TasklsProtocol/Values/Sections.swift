/// How a view is divided into sections, each introduced by a header row.

import Wire

/// A view's grouping into sections.
public enum Sections: String, CaseIterable, ProtocolValue, Hashable {
    /// No sections: item rows only (the default).
    case none
    /// By due bucket: Overdue, Today, Tomorrow, Next 7 Days, Later, No Date.
    case dueBucket
    /// By priority, highest first: High, Medium, Low, No Priority.
    case priority
    /// By list, in the lists' manual order.
    case list
    /// Not Done, then Done.
    case done

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown sections '\($0)'; expected one of \(names(Sections.self))" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("Sections", doc: "How a view is divided into sections.", [
        .init("none", "No sections: item rows only (the default)."),
        .init("dueBucket", "Overdue, Today, Tomorrow, Next 7 Days, Later, No Date (headers s:due:overdue ... s:due:noDate)."),
        .init("priority", "High, Medium, Low, No Priority (headers s:priority:high ... s:priority:none)."),
        .init("list", "The lists in their manual order, titled with the list's name (headers s:list:l3)."),
        .init("done", "Not Done, then Done (headers s:done:false, s:done:true)."),
    ])
}
