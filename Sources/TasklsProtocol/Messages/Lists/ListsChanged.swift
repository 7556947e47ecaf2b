/// `lists/changed` (notification, server → client): the whole overview, whenever it changed.

import Wire

/// `lists/changed` params: the overview, exactly as `lists/list` answers it.
public struct ListsChanged: NotificationMessage, Hashable {
    public static let method = "lists/changed"

    /// The overview.
    public var overview: Overview

    /// Makes the params.
    public init(_ overview: Overview) { self.overview = overview }

    public init(json: JSON, path: String) throws(ResponseError) {
        overview = try Overview(json: json, path: path)
    }

    public var json: JSON { overview.json }

    public static let schema = TypeSchema(
        name: "ListsChanged", doc: "lists/changed params: the overview, exactly as lists/list answers it.",
        shape: Overview.schema.shape)
}
