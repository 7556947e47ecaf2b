/// `view/closed` (notification, server → client): a view is gone.

import Wire

/// `view/closed` params: `{"view": V, "reason": REASON}`; the view will not change again and its id is
/// no longer valid.
public struct ViewClosed: NotificationMessage, Hashable {
    public static let method = "view/closed"

    /// The view.
    public var view: ViewID
    /// Why: `listDeleted` (its list was deleted), `smartListDeleted` (its smart list was deleted), `notFound` (its list
    /// or smart list did not exist when the store was read).
    public var reason: String

    /// Makes the params.
    public init(view: ViewID, reason: String) {
        self.view = view
        self.reason = reason
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        reason = try fields.required("reason")
    }

    public var json: JSON { ["view": view.json, "reason": .string(reason)] }

    public static let schema = TypeSchema.object("ViewClosed", doc: "view/closed params: the view is gone.", [
        .required("view", ViewID.schema.reference, "The view."),
        .required("reason", .string, "listDeleted: its list was deleted; smartListDeleted: its smart list was deleted; notFound: its list or smart list did not exist once the store was read."),
    ])
}
