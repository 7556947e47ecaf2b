/// Every notification a taskls server sends, read as its type.

import Wire

/// A notification from the server, decoded strictly by its type (its params refuse unknown members and
/// wrong types, with the member's path), so a client sees a typed value or an error, never loose JSON.
public enum ServerNotification: Sendable, Hashable {
    /// `view/changed`.
    case viewChanged(ViewChanged)
    /// `view/closed`.
    case viewClosed(ViewClosed)
    /// `lists/changed`.
    case listsChanged(ListsChanged)
    /// `$/progress`.
    case progress(Progress)
    /// `window/logMessage`.
    case logMessage(LogMessage)
    /// `window/showMessage`.
    case showMessage(ShowMessage)
    /// `reminder/fired`.
    case reminderFired(ReminderFired)

    /// Reads the notification `method` with `params` (absent params read as `null`, which every one refuses).
    /// - Throws: `-32601` for a method the server never sends, `-32602` naming the member for bad params.
    public init(method: String, params: JSON?) throws(ResponseError) {
        let json = params ?? .null
        switch method {
        case ViewChanged.method: self = .viewChanged(try ViewChanged(json: json, path: "params"))
        case ViewClosed.method: self = .viewClosed(try ViewClosed(json: json, path: "params"))
        case ListsChanged.method: self = .listsChanged(try ListsChanged(json: json, path: "params"))
        case Progress.method: self = .progress(try Progress(json: json, path: "params"))
        case LogMessage.method: self = .logMessage(try LogMessage(json: json, path: "params"))
        case ShowMessage.method: self = .showMessage(try ShowMessage(json: json, path: "params"))
        case ReminderFired.method: self = .reminderFired(try ReminderFired(json: json, path: "params"))
        default: throw ResponseError(.methodNotFound, "'\(method)' is not a notification a taskls server sends")
        }
    }

    /// The method name.
    public var method: String {
        switch self {
        case .viewChanged: ViewChanged.method
        case .viewClosed: ViewClosed.method
        case .listsChanged: ListsChanged.method
        case .progress: Progress.method
        case .logMessage: LogMessage.method
        case .showMessage: ShowMessage.method
        case .reminderFired: ReminderFired.method
        }
    }

    /// The params, as the type writes them.
    public var params: JSON {
        switch self {
        case .viewChanged(let params): params.json
        case .viewClosed(let params): params.json
        case .listsChanged(let params): params.json
        case .progress(let params): params.json
        case .logMessage(let params): params.json
        case .showMessage(let params): params.json
        case .reminderFired(let params): params.json
        }
    }

    /// The view a `view/changed` or `view/closed` is about; nil for the others.
    public var view: ViewID? {
        switch self {
        case .viewChanged(let change): change.view
        case .viewClosed(let closed): closed.view
        default: nil
        }
    }
}
