/// The members LSP lets every request carry, whatever the method.

import TasklsProtocol
import Wire

/// The members LSP lets every request carry (`WorkDoneProgressParams`, `PartialResultParams`), accepted on every
/// taskls request whatever its own params: taken out of the params before they are decoded, their types checked.
struct GenericRequestFields {
    /// The token to report the request's work on (`$/progress`), if the client gave one.
    var workDoneToken: ProgressToken?

    /// The `workDoneToken` of `params` when it is an integer or a string, leaving `params` as it is (for methods that
    /// read their params themselves).
    init(peekingInto params: JSON?) {
        if let token = params?["workDoneToken"] { workDoneToken = try? ProgressToken(json: token, path: "params.workDoneToken") }
    }

    /// Takes `workDoneToken` and `partialResultToken` out of `params` (when it is an object). taskls answers every
    /// request whole, so a `partialResultToken` is accepted and never used.
    init(taking params: inout JSON?) throws(ResponseError) {
        guard case .object(var object)? = params,
              object["workDoneToken"] != nil || object["partialResultToken"] != nil else { return }
        if let token = object["workDoneToken"] {
            workDoneToken = try ProgressToken(json: token, path: "params.workDoneToken")
            object["workDoneToken"] = nil
        }
        if let token = object["partialResultToken"] {
            _ = try ProgressToken(json: token, path: "params.partialResultToken")
            object["partialResultToken"] = nil
        }
        params = .object(object)
    }
}
