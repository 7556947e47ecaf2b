/// `$/cancelRequest` (notification): cancels a request that has not been handled yet.

import Wire

/// `$/cancelRequest` params: `{"id": ID}`; other members are ignored, as LSP allows.
public struct CancelRequest: NotificationMessage, Hashable {
    public static let method = "$/cancelRequest"

    /// The id of the request to cancel.
    public var id: RequestID

    /// Makes the params.
    public init(id: RequestID) { self.id = id }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        let value: JSON = try fields.required("id")
        guard let id = RequestID(value) else {
            throw .invalidParams("\(fields.path("id")): expected an integer or a string, got \(value.typeDescription)")
        }
        self.id = id
    }

    public var json: JSON { ["id": id.json] }

    public static let schema = TypeSchema.object(
        "CancelRequest", doc: "$/cancelRequest params; other members are ignored.", [
            .required("id", .oneOf([.integer, .string]), "The id of the request to cancel."),
        ], ignoresUnknownFields: true)
}
