/// Params shapes shared by several methods.

import Wire

/// Params of LSP lifecycle messages (`shutdown`, `exit`, `initialized`): ignored, whatever
/// their shape, so that no client's way of saying "no params" can keep a server running.
struct AnyParams: JSONDecodable {
    init(json: JSON, path: String) throws(ResponseError) {}
}

/// Params of a taskls method that takes none: absent or an empty object.
struct NoParams: JSONDecodable {
    init(json: JSON, path: String) throws(ResponseError) {
        try Fields(json: json, path: path).rejectUnknown([])
    }
}
