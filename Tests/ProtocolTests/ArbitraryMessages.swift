/// Seeded random params, results and notifications of every method.

import TasklsProtocol
import Wire

extension Initialize: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Initialize {
        Initialize(
            processId: random.maybe { $0.anyInt() }, timeZone: random.maybe { $0.string() }, store: random.maybe { $0.path() },
            workDoneProgress: random.maybe { $0.bool() }, trace: random.maybe { .arbitrary(&$0) },
            workDoneToken: random.maybe { $0.bool() ? .integer(Int64($0.anyInt())) : .string($0.string()) })
    }
}

extension InitializeResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> InitializeResult {
        InitializeResult(capabilities: .arbitrary(&random), serverInfo: .arbitrary(&random))
    }
}

extension Initialized: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Initialized { Initialized() }
}

extension Shutdown: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Shutdown { Shutdown() }
}

extension Exit: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Exit { Exit() }
}

extension CancelRequest: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> CancelRequest {
        CancelRequest(id: random.bool() ? .integer(Int64(random.anyInt())) : .string(random.string()))
    }
}

extension ServerPing: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ServerPing { ServerPing() }
}

extension StoreStatus: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreStatus { StoreStatus() }
}

extension StoreRetry: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreRetry { StoreRetry() }
}

extension StoreRetryResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreRetryResult {
        StoreRetryResult(status: .arbitrary(&random), retried: random.bool())
    }
}

extension DebugContinueLoading: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> DebugContinueLoading { DebugContinueLoading() }
}

extension DebugSetClock: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> DebugSetClock { DebugSetClock(now: random.string()) }
}

extension DebugSetClockResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> DebugSetClockResult { DebugSetClockResult(now: random.string()) }
}

extension ListsList: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsList { ListsList(watch: random.maybe { $0.bool() }) }
}

extension ListsCreate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsCreate {
        ListsCreate(name: random.string(), color: random.maybe { $0.string() }, icon: random.maybe { $0.string() },
                    before: random.maybe { .arbitrary(&$0) })
    }
}

extension ListsCreateResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsCreateResult {
        ListsCreateResult(list: .arbitrary(&random), revision: random.counter())
    }
}

extension ListsUpdate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsUpdate {
        ListsUpdate(id: .arbitrary(&random), name: random.maybe { $0.string() }, color: random.patch { $0.string() },
                    icon: random.patch { $0.string() })
    }
}

extension ListsUpdateResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsUpdateResult {
        ListsUpdateResult(list: .arbitrary(&random), revision: random.counter(), changed: random.bool())
    }
}

extension ListsDelete: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsDelete { ListsDelete(id: .arbitrary(&random)) }
}

extension ListsDeleteResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsDeleteResult { ListsDeleteResult(revision: random.counter()) }
}

extension ListsMove: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsMove {
        ListsMove(ids: random.ids(ListID.self), before: random.maybe { .arbitrary(&$0) })
    }
}

extension ListsMoveResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsMoveResult {
        ListsMoveResult(revision: random.counter(), changed: random.bool())
    }
}

extension ListsChanged: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsChanged { ListsChanged(.arbitrary(&random)) }
}

extension ItemsCreate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsCreate {
        ItemsCreate(
            list: .arbitrary(&random), title: random.string(), notes: random.maybe { $0.string() }, done: random.maybe { $0.bool() },
            due: random.maybe { $0.string() }, priority: random.maybe { .arbitrary(&$0) }, tags: random.maybe { $0.strings() },
            repeat: random.maybe { .arbitrary(&$0) }, before: random.maybe { .arbitrary(&$0) }, parent: .arbitrary(&random),
            alerts: random.maybe { Alert.list(&$0) })
    }
}

extension ParentChoice: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ParentChoice {
        switch random.int(0...2) {
        case 0: .unspecified
        case 1: .topLevel
        default: .item(.arbitrary(&random))
        }
    }
}

extension ItemsCreateResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsCreateResult {
        ItemsCreateResult(item: .arbitrary(&random), revision: random.counter())
    }
}

extension ItemsGet: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsGet { ItemsGet(id: .arbitrary(&random)) }
}

extension ItemsUpdate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsUpdate {
        var update = ItemsUpdate(
            random.bool() ? .id(.arbitrary(&random)) : .ids(random.ids(ItemID.self)), title: random.maybe { $0.string() },
            notes: random.maybe { $0.string() }, done: random.maybe { $0.bool() }, due: random.patch { $0.string() },
            priority: random.maybe { .arbitrary(&$0) }, tags: random.maybe { $0.strings() },
            repeat: random.patch { Repeat.arbitrary(&$0) }, alerts: random.maybe { Alert.list(&$0) })
        // Params that change nothing are refused; these must change something.
        if update.changesNothing { update.done = random.bool() }
        return update
    }
}

extension ItemsUpdateResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsUpdateResult {
        ItemsUpdateResult(items: (0..<random.int(0...3)).map { _ in .arbitrary(&random) }, revision: random.counter(),
                          changed: random.bool(), advanced: (0..<random.int(0...2)).map { _ in .arbitrary(&random) })
    }
}

extension ItemsSkip: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsSkip { ItemsSkip(ids: random.ids(ItemID.self)) }
}

extension ItemsSkipResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsSkipResult {
        ItemsSkipResult(items: (0..<random.int(0...3)).map { _ in .arbitrary(&random) }, revision: random.counter())
    }
}

extension ItemsDelete: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsDelete { ItemsDelete(ids: random.ids(ItemID.self)) }
}

extension ItemsDeleteResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsDeleteResult { ItemsDeleteResult(revision: random.counter()) }
}

extension ItemsDuplicate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsDuplicate { ItemsDuplicate(ids: random.ids(ItemID.self)) }
}

extension ItemsDuplicateResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsDuplicateResult {
        ItemsDuplicateResult(items: (0..<random.int(0...3)).map { _ in .arbitrary(&random) }, revision: random.counter())
    }
}

extension ItemsMove: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsMove {
        if random.bool() {
            return .ids(random.ids(ItemID.self), before: random.maybe { .arbitrary(&$0) }, list: random.maybe { .arbitrary(&$0) },
                        parent: .arbitrary(&random))
        }
        return .view(.arbitrary(&random), version: random.counter(), from: random.anyInt(), count: random.maybe { $0.anyInt() },
                     to: random.anyInt(), depth: random.maybe { $0.bool() ? $0.int(0...ProtocolLimits.maxDepth + 1) : abs($0.anyInt() / 2) })
    }
}

extension ItemsMoveResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsMoveResult {
        ItemsMoveResult(revision: random.counter(), changed: random.bool())
    }
}

extension ItemsIndent: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsIndent { ItemsIndent(ids: random.ids(ItemID.self)) }
}

extension ItemsOutdent: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemsOutdent { ItemsOutdent(ids: random.ids(ItemID.self)) }
}

extension ListsOpen: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListsOpen {
        ListsOpen(.arbitrary(&random), sort: random.maybe { .arbitrary(&$0) }, filter: random.maybe { .arbitrary(&$0) },
                  sections: random.maybe { .arbitrary(&$0) }, window: random.maybe { .arbitrary(&$0) })
    }
}

extension ViewSetWindow: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewSetWindow { ViewSetWindow(view: .arbitrary(&random), window: .arbitrary(&random)) }
}

extension ViewSort: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewSort { ViewSort(view: .arbitrary(&random), sort: .arbitrary(&random)) }
}

extension ViewFilter: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewFilter {
        ViewFilter(view: .arbitrary(&random), filter: random.maybe { .arbitrary(&$0) })
    }
}

extension ViewSections: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewSections {
        ViewSections(view: .arbitrary(&random), sections: .arbitrary(&random))
    }
}

extension ViewSnapshot: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewSnapshot { ViewSnapshot(view: .arbitrary(&random)) }
}

extension CollapseTarget: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> CollapseTarget { random.bool() ? .all : .ids(random.ids(ItemID.self)) }
}

extension ViewCollapse: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewCollapse { ViewCollapse(view: .arbitrary(&random), .arbitrary(&random)) }
}

extension ViewExpand: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewExpand { ViewExpand(view: .arbitrary(&random), .arbitrary(&random)) }
}

extension CollapseResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> CollapseResult { CollapseResult(changed: random.bool()) }
}

extension ViewLocate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewLocate { ViewLocate(view: .arbitrary(&random), id: .arbitrary(&random)) }
}

extension ViewLocation: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewLocation {
        let found = random.bool()
        return ViewLocation(view: .arbitrary(&random), version: random.counter(), index: found ? Int(random.counter() >> 2) : nil,
                            id: found ? .arbitrary(&random) : nil)
    }
}

extension ViewClose: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewClose { ViewClose(view: .arbitrary(&random)) }
}

extension ViewChanged: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewChanged {
        ViewChanged(
            view: .arbitrary(&random), version: random.counter(), state: .arbitrary(&random), count: random.maybe { $0.anyInt() },
            empty: random.maybe { .arbitrary(&$0) }, window: .arbitrary(&random),
            ops: (0..<random.int(0...4)).map { _ in .arbitrary(&random) })
    }
}

extension ViewClosed: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewClosed { ViewClosed(view: .arbitrary(&random), reason: random.string()) }
}

extension Undo: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Undo { Undo() }
}

extension UndoResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> UndoResult {
        UndoResult(undone: random.string(), description: random.string(), canUndo: random.bool(), canRedo: random.bool(), revision: random.counter())
    }
}

extension Redo: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Redo { Redo() }
}

extension RedoResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RedoResult {
        RedoResult(redone: random.string(), description: random.string(), canUndo: random.bool(), canRedo: random.bool(), revision: random.counter())
    }
}

extension TextParseItem: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TextParseItem {
        TextParseItem(text: random.string(), list: random.maybe { .arbitrary(&$0) })
    }
}

extension TextParseFilter: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TextParseFilter { TextParseFilter(text: random.string()) }
}

extension TextPosition: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TextPosition {
        TextPosition(utf16: random.int(0...1000), utf8: random.int(0...3000), scalars: random.int(0...1000))
    }
}

extension SpanKind: Arbitrary {}
extension WarningReason: Arbitrary {}

extension TextSpan: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TextSpan {
        let value: JSON? = random.pick([nil, .null, .string(random.string()), .array([.string(random.string())]),
                                        Alert.list(&random).json])
        return TextSpan(kind: .arbitrary(&random), text: random.string(), start: .arbitrary(&random), end: .arbitrary(&random),
                        value: value)
    }
}

extension TextWarning: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TextWarning {
        TextWarning(reason: .arbitrary(&random), message: random.string(), text: random.string(), start: .arbitrary(&random),
                    end: .arbitrary(&random))
    }
}

extension ItemTextFields: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemTextFields {
        ItemTextFields(title: random.maybe { $0.string() }, due: random.patch { $0.string() },
                       priority: random.maybe { .arbitrary(&$0) }, tags: random.maybe { $0.strings() },
                       list: random.maybe { .arbitrary(&$0) }, notes: random.maybe { $0.string() },
                       repeat: random.maybe { .arbitrary(&$0) }, alerts: random.maybe { Alert.list(&$0) })
    }
}

extension TextParseItemResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TextParseItemResult {
        TextParseItemResult(fields: .arbitrary(&random), spans: (0..<random.int(0...3)).map { _ in .arbitrary(&random) },
                            warnings: (0..<random.int(0...2)).map { _ in .arbitrary(&random) })
    }
}

extension TextParseFilterResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TextParseFilterResult {
        TextParseFilterResult(filter: .arbitrary(&random), spans: (0..<random.int(0...3)).map { _ in .arbitrary(&random) },
                              warnings: (0..<random.int(0...2)).map { _ in .arbitrary(&random) })
    }
}
