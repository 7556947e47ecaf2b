/// The protocol's failures as data: every JSON-RPC error code, every `data.reason` word the server sends, and
/// what each request can be refused with (for `protocol.json` and the tests that hold the server to it).

import Wire

/// One JSON-RPC error code the server answers with.
public struct ErrorCodeSchema: Sendable, Hashable {
    /// The code (`ErrorCode.invalidParams`).
    public var code: ErrorCode
    /// Its name in LSP's `ErrorCodes` / `LSPErrorCodes` (`InvalidParams`).
    public var name: String
    /// When the server answers with it, in a line.
    public var doc: String
}

/// One `data.reason` word of a `-32803` error: a stable word a client can branch on.
public struct ReasonSchema: Sendable, Hashable {
    /// The word (`notFound`).
    public var name: String
    /// What it means, in a line.
    public var doc: String
    /// The members of `data` the error carries besides `reason` (`ids`; `retryable`, `file`, `offset`).
    public var data: [String]
}

/// What one request can be refused with.
public struct RequestFailures: Sendable, Hashable {
    /// The codes, in the order of `ProtocolCatalog.errorCodes`.
    public var codes: [ErrorCode]
    /// The `data.reason` words of its `-32803` errors, in the order of `ProtocolCatalog.reasons`.
    public var reasons: [String]
}

extension ProtocolCatalog {
    /// The protocol's version, advertised as `capabilities.taskls.protocolVersion`.
    public static let protocolVersion = 1

    /// The methods that are LSP's own (the lifecycle, cancellation, tracing, progress and the window messages);
    /// `initialize` advertises only the others.
    public static let lspMethods: Set<String> = [
        Initialize.method, Shutdown.method, Initialized.method, Exit.method, CancelRequest.method, SetTrace.method,
        Progress.method, LogMessage.method, ShowMessage.method,
    ]

    /// Every error code the server answers with, by code as protocol.md's table lists them.
    public static let errorCodes: [ErrorCodeSchema] = [
        ErrorCodeSchema(code: .parseError, name: "ParseError",
                        doc: "The body is not valid JSON or UTF-8, or the framing is broken; id is null."),
        ErrorCodeSchema(code: .invalidRequest, name: "InvalidRequest",
                        doc: "Not a JSON-RPC 2.0 message; also a second initialize and any request after shutdown."),
        ErrorCodeSchema(code: .methodNotFound, name: "MethodNotFound", doc: "An unknown request method; the message names it."),
        ErrorCodeSchema(code: .invalidParams, name: "InvalidParams",
                        doc: "A param is missing, has the wrong type or a value out of range; the message starts with its path."),
        ErrorCodeSchema(code: .internalError, name: "InternalError", doc: "A bug in taskls; the message says what failed."),
        ErrorCodeSchema(code: .serverNotInitialized, name: "ServerNotInitialized", doc: "A request before initialize."),
        ErrorCodeSchema(code: .requestCancelled, name: "RequestCancelled",
                        doc: "The request was cancelled with $/cancelRequest before it ran."),
        ErrorCodeSchema(code: .contentModified, name: "ContentModified",
                        doc: "Rows addressed by view index with a view version no longer current; data.version is the current one."),
        ErrorCodeSchema(code: .requestFailed, name: "RequestFailed",
                        doc: "A valid request that could not be carried out; data.reason says why. Nothing was changed."),
    ]

    /// Every `data.reason` the server sends: the domain's refusals, the server's, and the store's
    /// (`StoreFailure`'s kinds and `storeLoading`).
    public static let reasons: [ReasonSchema] = [
        ReasonSchema(name: "notFound", doc: "An id names no list or item; data.ids lists every unknown id in request order (empty for a reminder that has not fired or was dismissed).",
                     data: ["ids"]),
        ReasonSchema(name: "unknownView", doc: "No open view has this id.", data: []),
        ReasonSchema(name: "beforeInBlock", doc: "before is one of the lists or items moved.", data: []),
        ReasonSchema(name: "beforeInOtherList", doc: "before is not an item of the destination list.", data: []),
        ReasonSchema(name: "ambiguousList", doc: "The items moved are in several lists and nothing names the destination list.",
                     data: []),
        ReasonSchema(name: "sortedView", doc: "Rows move by index only in a view in manual ascending order.", data: []),
        ReasonSchema(name: "viewLoading", doc: "The view is still being indexed; its rows cannot be moved by index yet.", data: []),
        ReasonSchema(name: "crossSection", doc: "A move by index across sections of a grouping other than by list.", data: []),
        ReasonSchema(name: "cycle", doc: "The new parent is a moved item or inside a moved item's subtree.", data: []),
        ReasonSchema(name: "tooDeep", doc: "A subtask would be deeper than 15 (an item has at most 15 ancestors).", data: []),
        ReasonSchema(name: "parentInOtherList", doc: "parent is not an item of the destination list.", data: []),
        ReasonSchema(name: "beforeNotChild", doc: "before and parent are both given, and before is not a subtask of parent.", data: []),
        ReasonSchema(name: "repeatWithoutDue",
                     doc: "The request would leave an item with a repeat and no due (clear both together, or give a due).", data: []),
        ReasonSchema(name: "notRepeating", doc: "items/skip of items that do not repeat; data.ids lists them in request order.",
                     data: ["ids"]),
        ReasonSchema(name: "repeatEnded",
                     doc: "items/skip of items whose repeat has ended (COUNT used up, past UNTIL); data.ids lists them in request order.",
                     data: ["ids"]),
        ReasonSchema(name: "noPreviousSibling", doc: "items/indent of items with no previous sibling to become subtasks of.", data: []),
        ReasonSchema(name: "topLevel", doc: "items/outdent of items at the top level.", data: []),
        ReasonSchema(name: "notSiblings",
                     doc: "items/indent or items/outdent of items (ids inside another's subtree aside) of different parents or lists.",
                     data: []),
        ReasonSchema(name: "notInView", doc: "view/collapse or view/expand of an item that is not an item of the view.", data: []),
        ReasonSchema(name: "nothingToUndo", doc: "The client's history is empty.", data: []),
        ReasonSchema(name: "nothingToRedo", doc: "Nothing was undone since the last new step.", data: []),
        ReasonSchema(name: "changedSince",
                     doc: "Something the step changed was changed since by someone else; the step is dropped.", data: []),
        ReasonSchema(name: "deletedSince", doc: "An item or list the step changed was deleted since; the step is dropped.", data: []),
        ReasonSchema(name: "listDeleted", doc: "The list an item must go back to was deleted since; the step is dropped.", data: []),
        ReasonSchema(name: "identifierUsed",
                     doc: "A new list or item would take an id already used: the store's records contradict each other.", data: []),
        ReasonSchema(name: "identifierUnused",
                     doc: "Undo or redo would bring back an id never handed out to that kind: the records contradict each other.",
                     data: []),
        ReasonSchema(name: "positionTaken",
                     doc: "Undo or redo would put two lists or two items of a list at one position: the records contradict each other.",
                     data: []),
        ReasonSchema(name: "uidTaken",
                     doc: "Two items would share one uid (an imported item's identity in its file): undo or redo would bring one back while another item, imported since, holds its uid; or an import would give an item's uid to another.",
                     data: []),
        ReasonSchema(name: "invalidFile",
                     doc: "store/import of a file with problems, with code -32602: data.problems lists each ({file, line, field, message}, at most 100), data.more counts the rest.",
                     data: ["problems", "more"]),
        ReasonSchema(name: "writeFailed", doc: "store/export could not write its file at params.path (the message says why).",
                     data: []),
        ReasonSchema(name: "syncUnavailable",
                     doc: "sync/now on a server that cannot sync: its store is in memory, or the taskls-sync program is not beside the server's executable.",
                     data: []),
        ReasonSchema(name: "syncFailed",
                     doc: "sync/now could not start: no account, no list shared, a list named that is not shared, another process syncing the store, or its sync settings unreadable (the message says which). A list whose own sync fails is not this: it is answered with its state.",
                     data: []),
        ReasonSchema(name: "loadNotHeld", doc: "debug/continueLoading on a server not started with --hold-load.", data: []),
        ReasonSchema(name: "clockNotManual", doc: "debug/setClock on a server running on the real clock (no --clock).", data: []),
        ReasonSchema(name: "storeLoading", doc: "The store is still being read; retryable.", data: ["retryable"]),
        ReasonSchema(name: "storeBusy", doc: "Another taskls process held the store's lock for 2 seconds; retryable, nothing changed.",
                     data: ["retryable"]),
        ReasonSchema(name: "storeFull", doc: "The disk or quota is full: nothing of the mutation was written.",
                     data: ["retryable", "file", "offset"]),
        ReasonSchema(name: "storeFailed", doc: "A write or sync failed, or the store cannot be read: views are in error until store/retry.",
                     data: ["retryable", "file", "offset"]),
        ReasonSchema(name: "storeCorrupt", doc: "The store is damaged; nothing is written until a person recovers it.",
                     data: ["retryable", "file", "offset"]),
        ReasonSchema(name: "storeUnsupported", doc: "The store was written by a newer taskls (an unknown format version).",
                     data: ["retryable", "file", "offset"]),
    ]

    /// What `method` can be refused with, or nil when it is not known (a method that is not a request of the
    /// catalog, or a request missing from the table below).
    ///
    /// Every request can get `-32600` (after `shutdown`), `-32602` (its params, or the generic members),
    /// `-32603` and `-32800`, and every one but `initialize` `-32002`; `-32803` comes with the reasons below.
    public static func failures(of method: String) -> RequestFailures? {
        guard let entry = requestFailures[method] else { return nil }
        var codes: [ErrorCode] = [.invalidRequest, .invalidParams, .internalError]
        if method != Initialize.method { codes.append(.serverNotInitialized) }
        codes.append(.requestCancelled)
        if entry.contentModified { codes.append(.contentModified) }
        let named = entry.reasons + entry.store.reasons
        let known = self.reasons.map(\.name)
        // A word `reasons` lacks comes last, where the tests see it.
        let reasons = known.filter(named.contains) + named.filter { !known.contains($0) }
        if !reasons.isEmpty { codes.append(.requestFailed) }
        return RequestFailures(codes: codes, reasons: reasons)
    }
}

/// How a request meets the store, which decides the store's refusals it can get.
private enum StoreExposure {
    /// Never refused for the store's sake (lifecycle, `server/ping`, the store's own state).
    case none
    /// Answered from waiting views while the store loads or failed; refused only when another process keeps the lock.
    case waits
    /// Refused while the store cannot serve, and when another process keeps the lock or a write fails.
    case needs

    /// The store's reasons for such a request.
    var reasons: [String] {
        switch self {
        case .none: []
        case .waits: ["storeBusy"]
        case .needs: ["storeLoading", "storeBusy", "storeFull", "storeFailed", "storeCorrupt", "storeUnsupported"]
        }
    }
}

/// One request's own refusals.
private struct FailureEntry {
    var store: StoreExposure
    var reasons: [String] = []
    var contentModified = false
}

/// Every request's refusals, by method (the handlers in `Sources/Server/Handlers`, their `StoreUse`, and the domain's
/// `refused`). A new request gets its entry here; `MetaModelTests` fails until it has one.
private let requestFailures: [String: FailureEntry] = [
    Initialize.method: FailureEntry(store: .none),
    Shutdown.method: FailureEntry(store: .none),
    ServerPing.method: FailureEntry(store: .none),
    DebugSetClock.method: FailureEntry(store: .none, reasons: ["clockNotManual"]),
    StoreStatus.method: FailureEntry(store: .none),
    StoreRetry.method: FailureEntry(store: .none),
    DebugContinueLoading.method: FailureEntry(store: .none, reasons: ["loadNotHeld"]),
    ListsList.method: FailureEntry(store: .waits),
    ListsCreate.method: FailureEntry(store: .needs, reasons: ["notFound", "identifierUsed"]),
    ListsUpdate.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    ListsDelete.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    ListsMove.method: FailureEntry(store: .needs, reasons: ["notFound", "beforeInBlock"]),
    SmartListsCreate.method: FailureEntry(store: .needs, reasons: ["notFound", "identifierUsed"]),
    SmartListsUpdate.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    SmartListsDelete.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    SmartListsMove.method: FailureEntry(store: .needs, reasons: ["notFound", "beforeInBlock"]),
    ItemsCreate.method: FailureEntry(
        store: .needs,
        reasons: ["notFound", "beforeInOtherList", "tooDeep", "parentInOtherList", "beforeNotChild", "repeatWithoutDue", "identifierUsed"]),
    ItemsGet.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    ItemsUpdate.method: FailureEntry(store: .needs, reasons: ["notFound", "repeatWithoutDue"]),
    ItemsSkip.method: FailureEntry(store: .needs, reasons: ["notFound", "notRepeating", "repeatEnded"]),
    ItemsDelete.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    ItemsDuplicate.method: FailureEntry(store: .needs, reasons: ["notFound", "identifierUsed"]),
    ItemsMove.method: FailureEntry(
        store: .needs,
        reasons: ["notFound", "unknownView", "beforeInBlock", "beforeInOtherList", "ambiguousList", "sortedView", "viewLoading",
                  "crossSection", "cycle", "tooDeep", "parentInOtherList", "beforeNotChild"],
        contentModified: true),
    ItemsIndent.method: FailureEntry(store: .needs, reasons: ["notFound", "tooDeep", "noPreviousSibling", "notSiblings"]),
    ItemsOutdent.method: FailureEntry(store: .needs, reasons: ["notFound", "topLevel", "notSiblings"]),
    ListsOpen.method: FailureEntry(store: .waits, reasons: ["notFound"]),
    ViewSetWindow.method: FailureEntry(store: .waits, reasons: ["unknownView"]),
    ViewSort.method: FailureEntry(store: .waits, reasons: ["unknownView"]),
    ViewFilter.method: FailureEntry(store: .waits, reasons: ["unknownView"]),
    ViewSections.method: FailureEntry(store: .waits, reasons: ["unknownView"]),
    ViewSnapshot.method: FailureEntry(store: .waits, reasons: ["unknownView"]),
    ViewCollapse.method: FailureEntry(store: .waits, reasons: ["unknownView", "notInView"]),
    ViewExpand.method: FailureEntry(store: .waits, reasons: ["unknownView", "notInView"]),
    ViewLocate.method: FailureEntry(store: .waits, reasons: ["unknownView", "notFound"]),
    ViewClose.method: FailureEntry(store: .waits, reasons: ["unknownView"]),
    Undo.method: FailureEntry(
        store: .needs,
        reasons: ["nothingToUndo", "changedSince", "deletedSince", "listDeleted", "identifierUnused", "positionTaken", "uidTaken"]),
    Redo.method: FailureEntry(
        store: .needs,
        reasons: ["nothingToRedo", "changedSince", "deletedSince", "listDeleted", "identifierUnused", "positionTaken", "uidTaken"]),
    TextParseItem.method: FailureEntry(store: .waits, reasons: ["notFound"]),
    TextParseFilter.method: FailureEntry(store: .none),
    RemindersWatch.method: FailureEntry(store: .none),
    RemindersList.method: FailureEntry(store: .needs),
    SyncNow.method: FailureEntry(store: .needs, reasons: ["syncUnavailable", "syncFailed"]),
    RemindersDismiss.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    RemindersSnooze.method: FailureEntry(store: .needs, reasons: ["notFound"]),
    StoreImport.method: FailureEntry(store: .needs, reasons: ["notFound", "tooDeep", "uidTaken", "invalidFile"]),
    StoreExport.method: FailureEntry(store: .needs, reasons: ["notFound", "writeFailed"]),
]
