/// Params the protocol accepts, and what they read as: LSP's whole `InitializeParams`, Lua's `[]`
/// for `{}`, defaults, and the forms of the messages with a choice.

import TasklsProtocol
import Testing
import Wire

private func read<Value: ProtocolValue>(_ type: Value.Type, _ params: JSON) throws -> Value {
    try Value(json: params, path: "params")
}

@Test func initializeToleratesWhatNeovimSendsAndReadsWhatTasklsUses() throws {
    // Tests/Transcripts/lifecycle/initialize.tx, roughly what Neovim 0.7 sends.
    let params: JSON = [
        "processId": 4242, "clientInfo": ["name": "Neovim", "version": "0.7.2"], "rootUri": nil, "rootPath": nil,
        "workspaceFolders": nil, "trace": "off",
        "capabilities": ["workspace": ["applyEdit": true, "workspaceFolders": true],
                         "textDocument": ["synchronization": ["didSave": true]],
                         "window": ["workDoneProgress": true, "showMessage": ["messageActionItem": ["additionalPropertiesSupport": false]]]],
        "initializationOptions": [:],
    ]
    let initialize = try read(Initialize.self, params)
    #expect(initialize == Initialize(processId: 4242, workDoneProgress: true, trace: .off))
}

private let initializeCases: [(JSON, Initialize)] = [
    (JSON.object([:]), Initialize()),
    (["initializationOptions": []], Initialize()),
    (["initializationOptions": nil, "processId": nil], Initialize()),
    (["capabilities": [], "initializationOptions": ["unknown": 1]], Initialize()),
    (["capabilities": ["window": []]], Initialize()),
    (["initializationOptions": ["timeZone": "Europe/Paris", "store": "/tmp/s"], "workDoneToken": "t"],
     Initialize(timeZone: "Europe/Paris", store: "/tmp/s", workDoneToken: .string("t"))),
    (["workDoneToken": 7, "trace": "verbose"], Initialize(trace: .verbose, workDoneToken: .integer(7))),
]

@Test(arguments: initializeCases)
func initializeReads(_ params: JSON, _ expected: Initialize) throws {
    #expect(try read(Initialize.self, params) == expected)
}

@Test func theServersTimeZoneCheckSaysTodaysMessage() {
    #expect(Initialize.unknownTimeZone("Mars/Olympus_Mons").message ==
        "params.initializationOptions.timeZone: unknown time zone 'Mars/Olympus_Mons'; expected an IANA name such as Europe/Paris")
}

@Test(arguments: [JSON.null, "x", [1], ["anything": [1, 2]], 5])
func lifecycleNotificationsAndShutdownAcceptAnyParams(_ params: JSON) throws {
    _ = try read(Initialized.self, params)
    _ = try read(Exit.self, params)
    _ = try read(Shutdown.self, params)
}

@Test func cancellationIgnoresOtherMembers() throws {
    #expect(try read(CancelRequest.self, ["id": "abc", "reason": "user"]) == CancelRequest(id: .string("abc")))
    #expect(try read(CancelRequest.self, ["id": 9]) == CancelRequest(id: .integer(9)))
}

@Test func defaultsAreLeftToTheServerButSaidInOnePlace() throws {
    let open = try read(ListsOpen.self, ["group": "today"])
    #expect(open == ListsOpen(.group(.today)))
    #expect(try read(Sort.self, ["by": "title"]) == Sort(.title, .ascending))
    #expect(try read(Filter.self, [:]) == Filter.all)
    // Members at their defaults read as the defaults and are left out when written.
    let filter = try read(Filter.self, ["text": "", "done": "any", "tagsAnyOf": [], "tagsAllOf": []])
    #expect(filter == .all && filter.json == [:])
    #expect(Sort(.due).json == ["by": "due", "direction": "ascending"])
}

@Test func theFormsOfItemsMove() throws {
    #expect(try read(ItemsMove.self, ["ids": ["i1", "i2"], "before": nil]) == .ids([ItemID(1), ItemID(2)], before: nil))
    #expect(try read(ItemsMove.self, ["ids": ["i1"], "before": "i3", "list": "l2"]) == .ids([ItemID(1)], before: ItemID(3), list: ListID(2)))
    #expect(try read(ItemsMove.self, ["view": "v1", "version": 4, "from": 2, "to": 0]) == .view(ViewID(1), version: 4, from: 2, to: 0))
    // Ranges are the server's to check (after the view, its version and its sort); a negative version is no version.
    #expect(try read(ItemsMove.self, ["view": "v1", "version": -3, "from": -1, "count": 0, "to": -5])
        == .view(ViewID(1), version: 0, from: -1, count: 0, to: -5))
    // `before` is always written, as null for the end.
    #expect(ItemsMove.ids([ItemID(1)], before: nil).json == ["ids": ["i1"], "before": nil])
    // `depth`: absent is the default; 0 and up are the server's to check against the rows around `to`.
    #expect(try read(ItemsMove.self, ["view": "v1", "version": 4, "from": 2, "to": 0, "depth": 0])
        == .view(ViewID(1), version: 4, from: 2, to: 0, depth: 0))
    #expect(try read(ItemsMove.self, ["view": "v1", "version": 4, "from": 2, "count": 3, "to": 1, "depth": 16])
        == .view(ViewID(1), version: 4, from: 2, count: 3, to: 1, depth: 16))
    #expect(ItemsMove.view(ViewID(1), version: 4, from: 2, to: 1, depth: 2).json
        == ["view": "v1", "version": 4, "from": 2, "to": 1, "depth": 2])
    #expect(ListsMove(ids: [ListID(1)], before: nil).json == ["ids": ["l1"], "before": nil])
}

/// `parent` of `items/create` and `items/move` by id: absent, `null` and an item are three different requests.
@Test func parentTellsAbsentFromTheTopLevelFromAnItem() throws {
    let cases: [(JSON?, ParentChoice)] = [(nil, .unspecified), (.null, .topLevel), ("i4", .item(ItemID(4)))]
    for (member, parent) in cases {
        var move: JSONObject = ["ids": ["i1", "i2"], "before": "i3"]
        var create: JSONObject = ["list": "l1", "title": "t"]
        move["parent"] = member
        create["parent"] = member
        let readMove = try read(ItemsMove.self, .object(move))
        #expect(readMove == .ids([ItemID(1), ItemID(2)], before: ItemID(3), parent: parent))
        #expect(readMove.json == .object(move), "written back as it was read")
        let readCreate = try read(ItemsCreate.self, .object(create))
        #expect(readCreate == ItemsCreate(list: ListID(1), title: "t", parent: parent))
        #expect(readCreate.json == .object(create))
        #expect(parent.item == (member == "i4" ? ItemID(4) : nil))
    }
    // Absent by default, so params made without it mean what they meant before subtasks.
    #expect(ItemsCreate(list: ListID(1), title: "t").parent == .unspecified)
    #expect(ItemsMove.ids([ItemID(1)], before: nil) == .ids([ItemID(1)], before: nil, list: nil, parent: .unspecified))
}

@Test func collapseAndExpandNameItemsOrAll() throws {
    #expect(try read(ViewCollapse.self, ["view": "v2", "ids": ["i3", "i1"]]) == ViewCollapse(view: ViewID(2), .ids([ItemID(3), ItemID(1)])))
    #expect(try read(ViewCollapse.self, ["all": true, "view": "v2"]) == ViewCollapse(view: ViewID(2), .all))
    #expect(try read(ViewExpand.self, ["view": "v2", "ids": ["i3"]]) == ViewExpand(view: ViewID(2), .ids([ItemID(3)])))
    #expect(try read(ViewExpand.self, ["view": "v2", "all": true]) == ViewExpand(view: ViewID(2), .all))
    #expect(ViewExpand(view: ViewID(2), .all).json == ["view": "v2", "all": true])
    #expect(ViewCollapse(view: ViewID(2), .ids([ItemID(5)])).json == ["view": "v2", "ids": ["i5"]])
    #expect(try read(CollapseResult.self, ["changed": false]) == CollapseResult(changed: false))
    #expect(try read(ItemsIndent.self, ["ids": ["i2", "i1"]]).ids == [ItemID(2), ItemID(1)])
    #expect(try read(ItemsOutdent.self, ["ids": ["i9"]]).json == ["ids": ["i9"]])
}

@Test func updatesTellAbsentFromNullFromAValue() throws {
    let update = try read(ItemsUpdate.self, ["ids": ["i1", "i2"], "due": nil])
    #expect(update == ItemsUpdate(.ids([ItemID(1), ItemID(2)]), due: .cleared))
    #expect(update.target.ids == [ItemID(1), ItemID(2)])
    #expect(try read(ItemsUpdate.self, ["id": "i1", "due": "2026-11-23"]).due == .set("2026-11-23"))
    #expect(try read(ItemsUpdate.self, ["id": "i1", "done": true]).due == .unchanged)
    let list = try read(ListsUpdate.self, ["id": "l1", "color": nil, "icon": "x"])
    #expect(list == ListsUpdate(id: ListID(1), color: .cleared, icon: .set("x")))
    #expect(list.json == ["id": "l1", "color": nil, "icon": "x"])
    #expect(try read(ListsUpdate.self, ["id": "l1"]) == ListsUpdate(id: ListID(1)))
}

@Test func resultsWriteTheMembersTheServerWritesInItsOrder() throws {
    let item = Item(id: ItemID(7), list: ListID(1), title: "Buy milk", notes: "2 litres", due: "2026-11-23", priority: .high,
                    tags: ["home"], created: "2026-11-22T09:30:00.000Z", modified: "2026-11-22T09:30:00.000Z", revision: 1,
                    repeat: Repeat(rule: "FREQ=WEEKLY;BYDAY=MO", from: .due),
                    occurrences: Occurrences(completed: 1, recent: [Occurrence(due: "2026-11-16", outcome: .completed, at: "2026-11-16T18:02:11.000Z")]))
    #expect(item.json.text == #"{"id":"i7","list":"l1","parent":null,"title":"Buy milk","notes":"2 litres","done":false,"completed":null,"due":"2026-11-23","priority":"high","tags":["home"],"children":0,"openChildren":0,"created":"2026-11-22T09:30:00.000Z","modified":"2026-11-22T09:30:00.000Z","revision":1,"repeat":{"rule":"FREQ=WEEKLY;BYDAY=MO","from":"due"},"occurrences":{"completed":1,"skipped":0,"recent":[{"due":"2026-11-16","outcome":"completed","at":"2026-11-16T18:02:11.000Z"}]},"alerts":[]}"#)
    let subtask = Item(id: ItemID(8), list: ListID(1), parent: ItemID(7), title: "Semi-skimmed", children: 2, openChildren: 1,
                       created: "2026-11-22T09:30:00.000Z", modified: "2026-11-22T09:30:00.000Z", revision: 3)
    #expect(subtask.json.text == #"{"id":"i8","list":"l1","parent":"i7","title":"Semi-skimmed","notes":"","done":false,"completed":null,"due":null,"priority":"none","tags":[],"children":2,"openChildren":1,"created":"2026-11-22T09:30:00.000Z","modified":"2026-11-22T09:30:00.000Z","revision":3,"repeat":null,"occurrences":{"completed":0,"skipped":0,"recent":[]},"alerts":[]}"#)
    // A row says where it sits in the view's tree, every member always present.
    let top = ItemRow(id: ItemID(7), list: ListID(1), title: "Buy milk", revision: 1)
    #expect(top.json.text == #"{"kind":"item","id":"i7","list":"l1","parent":null,"depth":0,"title":"Buy milk","done":false,"due":null,"priority":"none","tags":[],"hasNotes":false,"children":0,"openChildren":0,"hasChildren":false,"collapsed":false,"context":false,"revision":1,"repeat":null,"hasAlerts":false}"#)
    let nested = ItemRow(id: ItemID(8), list: ListID(1), parent: ItemID(7), depth: 1, title: "x", children: 2, openChildren: 1,
                         hasChildren: true, collapsed: true, context: true, revision: 3)
    #expect(nested.json.text == #"{"kind":"item","id":"i8","list":"l1","parent":"i7","depth":1,"title":"x","done":false,"due":null,"priority":"none","tags":[],"hasNotes":false,"children":2,"openChildren":1,"hasChildren":true,"collapsed":true,"context":true,"revision":3,"repeat":null,"hasAlerts":false}"#)
    let list = TaskList(id: ListID(1), name: "Inbox", color: "blue", open: 3, total: 5)
    #expect(list.json.text == #"{"id":"l1","name":"Inbox","color":"blue","icon":null,"open":3,"total":5}"#)
    let snapshot = ViewSnapshotResult(
        view: ViewID(1), version: 4, state: .ready, count: 0, empty: .noItems, window: Window(start: 0, end: 50), sort: .manual,
        source: .list(ListID(1)), rows: [])
    #expect(snapshot.json.text == #"{"view":"v1","version":4,"state":"ready","count":0,"empty":"noItems","window":{"start":0,"end":50},"sort":{"by":"manual","direction":"ascending"},"filter":{},"sections":"none","list":"l1","rows":[]}"#)
    let failed = ViewChanged(view: ViewID(2), version: 3, state: .error(ViewError(message: "m", retryable: true)), count: nil,
                             window: Window(start: 0, end: 10), ops: [])
    #expect(failed.json.text == #"{"view":"v2","version":3,"state":"error","error":{"message":"m","retryable":true},"count":null,"window":{"start":0,"end":10},"ops":[]}"#)
    let status = StoreRetryResult(status: StoreStatusResult(
        state: .ready(sequence: 3, journalBytes: 120, snapshotSequence: 0, compacting: false), path: "/s"), retried: false)
    #expect(status.json.text == #"{"state":"ready","sequence":3,"journalBytes":120,"snapshotSequence":0,"compacting":false,"path":"/s","retried":false}"#)
    let error = StoreStatusResult(state: .error(message: "m", error: StoreErrorData(reason: "storeCorrupt", retryable: false, file: "journal", offset: 32)))
    #expect(error.json.text == #"{"state":"error","error":{"reason":"storeCorrupt","retryable":false,"file":"journal","offset":32},"message":"m"}"#)
    #expect(WindowOperation.move(from: 1, to: 0, row: nil).json.text == #"{"op":"move","from":1,"to":0}"#)
    #expect(NullResult().json == .null && EmptyResult().json == [:])
}
