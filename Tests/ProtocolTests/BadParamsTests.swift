/// Bad params of every message, each refused with `-32602` and exactly the message the server gives
/// today (copied from the transcripts and the handlers): the first problem in the order the server
/// reads the params.

import TasklsProtocol
import Testing
import Wire

struct BadParams: Sendable, CustomTestStringConvertible {
    let type: any ProtocolValue.Type
    let params: JSON
    let message: String

    init(_ type: any ProtocolValue.Type, _ params: JSON, _ message: String) {
        self.type = type
        self.params = params
        self.message = message
    }

    var testDescription: String { "\(type) \(params.text)" }
}

/// The error reading `params` as `type` gives, or nil when it reads.
func refusal(_ type: any ProtocolValue.Type, _ params: JSON) -> ResponseError? {
    do {
        _ = try type.init(json: params, path: "params")
        return nil
    } catch {
        return error
    }
}

private let lifecycle: [BadParams] = [
    .init(Initialize.self, [1], "params: expected an object, got an array"),
    .init(Initialize.self, ["processId": "4242"], "params.processId: expected an integer, got a string"),
    .init(Initialize.self, ["initializationOptions": "x"], "params.initializationOptions: expected an object, got a string"),
    .init(Initialize.self, ["initializationOptions": [1]], "params.initializationOptions: expected an object, got an array"),
    .init(Initialize.self, ["initializationOptions": ["timeZone": 5]],
          "params.initializationOptions.timeZone: expected a string, got an integer"),
    .init(Initialize.self, ["initializationOptions": ["timeZone": nil]],
          "params.initializationOptions.timeZone: expected a string, got null"),
    .init(Initialize.self, ["initializationOptions": ["store": nil]], "params.initializationOptions.store: expected a string, got null"),
    .init(Initialize.self, ["initializationOptions": ["store": ""]], "params.initializationOptions.store: expected a directory path, got ''"),
    .init(Initialize.self, ["initializationOptions": ["store": "a\u{0}b"]],
          "params.initializationOptions.store: expected a directory path, got 'a\u{0}b'"),
    // The members read in the order the server read them: processId, then the options.
    .init(Initialize.self, ["initializationOptions": ["timeZone": 5], "processId": "x"], "params.processId: expected an integer, got a string"),
    .init(Initialize.self, ["trace": "loud"], "params.trace: expected off, messages or verbose, got 'loud'"),
    .init(Initialize.self, ["workDoneToken": true], "params.workDoneToken: expected an integer or a string, got a boolean"),
    .init(Initialize.self, ["workDoneToken": nil], "params.workDoneToken: expected an integer or a string, got null"),
    .init(CancelRequest.self, [:], "params.id: missing"),
    .init(CancelRequest.self, ["id": nil], "params.id: expected an integer or a string, got null"),
    .init(CancelRequest.self, ["id": 1.5], "params.id: expected an integer or a string, got a number with a fraction or exponent"),
    .init(CancelRequest.self, "x", "params: expected an object, got a string"),
]

private let noParams: [BadParams] = [ServerPing.self, StoreStatus.self, StoreRetry.self, DebugContinueLoading.self, Undo.self,
                                     Redo.self].flatMap { type -> [BadParams] in
    [.init(type, ["force": true], "params.force: unknown field; this method takes no params"),
     .init(type, [], "params: expected an object, got an array")]
}

private let server: [BadParams] = [
    .init(DebugSetClock.self, ["zone": "UTC"], "params.zone: unknown field; expected one of now"),
    .init(DebugSetClock.self, [:], "params.now: missing"),
    .init(DebugSetClock.self, ["now": 5], "params.now: expected a string, got an integer"),
]

private let lists: [BadParams] = [
    .init(ListsList.self, ["all": true], "params.all: unknown field; expected one of watch"),
    .init(ListsList.self, ["watch": "yes"], "params.watch: expected a boolean, got a string"),
    .init(ListsList.self, ["watch": nil], "params.watch: expected a boolean, got null"),
    .init(ListsCreate.self, ["name": "N", "colour": "red"], "params.colour: unknown field; expected one of before, color, icon, name"),
    .init(ListsCreate.self, [:], "params.name: missing"),
    .init(ListsCreate.self, ["name": nil], "params.name: expected a string, got null"),
    .init(ListsCreate.self, ["name": "N", "color": 5], "params.color: expected a string, got an integer"),
    .init(ListsCreate.self, ["name": "N", "icon": []], "params.icon: expected a string, got an array"),
    .init(ListsCreate.self, ["name": "N", "before": "inbox"], "params.before: 'inbox' is not a list id"),
    .init(ListsUpdate.self, ["id": "l1", "title": "x"], "params.title: unknown field; expected one of color, icon, id, name"),
    .init(ListsUpdate.self, ["name": "x"], "params.id: missing"),
    .init(ListsUpdate.self, ["id": "inbox"], "params.id: 'inbox' is not a list id"),
    .init(ListsUpdate.self, ["id": "l01"], "params.id: 'l01' is not a list id"),
    .init(ListsUpdate.self, ["id": ""], "params.id: '' is not a list id"),
    .init(ListsUpdate.self, ["id": "l18446744073709551616"], "params.id: 'l18446744073709551616' is out of range; list ids number from 1 to 2^64 - 1"),
    .init(ListsUpdate.self, ["id": "l1", "name": nil], "params.name: expected a string, got null"),
    .init(ListsUpdate.self, ["id": "l1", "color": true], "params.color: expected a string, got a boolean"),
    .init(ListsDelete.self, ["id": "l1", "force": true], "params.force: unknown field; expected one of id"),
    .init(ListsDelete.self, ["id": 5], "params.id: expected a string, got an integer"),
    .init(ListsMove.self, ["ids": ["l1"]], "params.before: missing; give a list id, or null for the end"),
    .init(ListsMove.self, ["before": nil], "params.ids: missing"),
    .init(ListsMove.self, ["ids": [], "before": nil], "params.ids: must not be empty"),
    .init(ListsMove.self, ["ids": ["l1", "l1"], "before": nil], "params.ids: lists an id twice"),
    .init(ListsMove.self, ["ids": ["l1", "?"], "before": nil], "params.ids[1]: '?' is not a list id"),
    .init(ListsMove.self, ["ids": ["l1"], "after": "l2"], "params.after: unknown field; expected one of before, ids"),
    .init(ListsMove.self, ["ids": ["l1"], "before": 5], "params.before: expected a string, got an integer"),
    .init(ListsMove.self, ["ids": .array((1...100_001).map { .string("l\($0)") }), "before": nil],
          "params.ids: at most 100000 ids per request"),
]

private let smartLists: [BadParams] = [
    .init(SmartListsCreate.self, [:], "params.name: missing"),
    .init(SmartListsCreate.self, ["name": "N", "query": "x"], "params.query: unknown field; expected one of before, color, filter, icon, lists, name"),
    .init(SmartListsCreate.self, ["name": "N", "filter": nil], "params.filter: expected an object, got null"),
    .init(SmartListsCreate.self, ["name": "N", "filter": ["done": "maybe"]], "params.filter.done: expected any, done or notDone, got 'maybe'"),
    .init(SmartListsCreate.self, ["name": "N", "lists": ["l1", "l1"]], "params.lists: lists an id twice"),
    .init(SmartListsCreate.self, ["name": "N", "lists": ["s1"]], "params.lists[0]: 's1' is not a list id"),
    .init(SmartListsCreate.self, ["name": "N", "before": "l1"], "params.before: 'l1' is not a smart list id"),
    .init(SmartListsUpdate.self, ["name": "x"], "params.id: missing"),
    .init(SmartListsUpdate.self, ["id": "s01"], "params.id: 's01' is not a smart list id"),
    .init(SmartListsUpdate.self, ["id": "s18446744073709551616"], "params.id: 's18446744073709551616' is out of range; smart list ids number from 1 to 2^64 - 1"),
    .init(SmartListsUpdate.self, ["id": "s1", "lists": ["l2", "l2"]], "params.lists: lists an id twice"),
    .init(SmartListsUpdate.self, ["id": "s1", "filter": nil], "params.filter: expected an object, got null"),
    .init(SmartListsUpdate.self, ["id": "s1", "name": nil], "params.name: expected a string, got null"),
    .init(SmartListsDelete.self, ["id": "l1"], "params.id: 'l1' is not a smart list id"),
    .init(SmartListsDelete.self, ["id": "s1", "force": true], "params.force: unknown field; expected one of id"),
    .init(SmartListsMove.self, ["ids": ["s1"]], "params.before: missing; give a smart list id, or null for the end"),
    .init(SmartListsMove.self, ["ids": [], "before": nil], "params.ids: must not be empty"),
    .init(SmartListsMove.self, ["ids": ["s1", "s1"], "before": nil], "params.ids: lists an id twice"),
]

private let items: [BadParams] = [
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "colour": 1],
          "params.colour: unknown field; expected one of alerts, before, done, due, list, notes, parent, priority, repeat, tags, title"),
    .init(ItemsCreate.self, ["title": "t"], "params.list: missing"),
    .init(ItemsCreate.self, ["list": "inbox", "title": "t"], "params.list: 'inbox' is not a list id"),
    .init(ItemsCreate.self, ["list": "l1"], "params.title: missing"),
    .init(ItemsCreate.self, ["list": "l1", "title": nil], "params.title: expected a string, got null"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "notes": nil], "params.notes: expected a string, got null"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "done": "yes"], "params.done: expected a boolean, got a string"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "due": 5], "params.due: expected a string, got an integer"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "priority": "urgent"],
          "params.priority: unknown priority 'urgent'; expected none, low, medium or high"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "priority": "HIGH"],
          "params.priority: unknown priority 'HIGH'; expected none, low, medium or high"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "priority": nil], "params.priority: expected a string, got null"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "tags": "home"], "params.tags: expected an array, got a string"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "tags": nil], "params.tags: expected an array, got null"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "tags": ["a", 1]], "params.tags[1]: expected a string, got an integer"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "tags": [[:]]], "params.tags[0]: expected a string, got an object"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "before": 5], "params.before: expected a string, got an integer"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "before": "l2"], "params.before: 'l2' is not an item id"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "parent": 5], "params.parent: expected a string, got an integer"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "parent": "l1"], "params.parent: 'l1' is not an item id"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "parent": []], "params.parent: expected a string, got an array"),
    // `before` is read before `parent`.
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "parent": 5, "before": 5], "params.before: expected a string, got an integer"),
    // In the order the server reads them: the list before the title, the tags before `before`.
    .init(ItemsCreate.self, ["title": 5, "list": 5], "params.list: expected a string, got an integer"),
    .init(ItemsCreate.self, ["before": 5, "tags": 5, "list": "l1", "title": "t"], "params.tags: expected an array, got an integer"),
    .init(ItemsGet.self, ["id": "i1", "full": true], "params.full: unknown field; expected one of id"),
    .init(ItemsGet.self, [:], "params.id: missing"),
    .init(ItemsGet.self, ["id": "milk"], "params.id: 'milk' is not an item id"),
    .init(ItemsGet.self, ["id": "i0099"], "params.id: 'i0099' is not an item id"),
    .init(ItemsGet.self, ["id": "i0"], "params.id: 'i0' is not an item id"),
    .init(ItemsGet.self, ["id": "i"], "params.id: 'i' is not an item id"),
    .init(ItemsGet.self, ["id": "l1"], "params.id: 'l1' is not an item id"),
    .init(ItemsGet.self, ["id": "i+98"], "params.id: 'i+98' is not an item id"),
    .init(ItemsGet.self, ["id": "i18446744073709551616"],
          "params.id: 'i18446744073709551616' is out of range; item ids number from 1 to 2^64 - 1"),
    .init(ItemsGet.self, ["id": 42], "params.id: expected a string, got an integer"),
    .init(ItemsUpdate.self, ["id": "i1", "list": "l1"],
          "params.list: unknown field; expected one of alerts, done, due, id, ids, notes, priority, repeat, tags, title"),
    .init(ItemsUpdate.self, ["title": "t"], "params.id: missing; give id (one item) or ids (several)"),
    .init(ItemsUpdate.self, ["id": "i1", "ids": ["i2"], "title": "t"], "params: give id or ids, not both"),
    .init(ItemsUpdate.self, ["id": "i1"], "params: nothing to change; give at least one of title, notes, done, due, priority, tags, repeat, alerts"),
    .init(ItemsUpdate.self, ["ids": [], "title": "t"], "params.ids: must not be empty"),
    .init(ItemsUpdate.self, ["ids": ["i+98"], "title": "t"], "params.ids[0]: 'i+98' is not an item id"),
    .init(ItemsUpdate.self, ["id": nil, "title": "t"], "params.id: expected a string, got null"),
    .init(ItemsUpdate.self, ["ids": nil, "title": "t"], "params.ids: expected an array, got null"),
    .init(ItemsUpdate.self, ["id": "i1", "title": nil], "params.title: expected a string, got null"),
    .init(ItemsUpdate.self, ["id": "i1", "priority": nil], "params.priority: expected a string, got null"),
    .init(ItemsUpdate.self, ["id": "i1", "due": 5], "params.due: expected a string, got an integer"),
    .init(ItemsUpdate.self, ["id": "i1", "tags": nil], "params.tags: expected an array, got null"),
    // Both members' types before the choice; every field's type before "nothing to change".
    .init(ItemsUpdate.self, ["ids": ["i1"], "id": nil], "params.id: expected a string, got null"),
    .init(ItemsUpdate.self, ["id": "i1", "ids": [5]], "params.ids[0]: expected a string, got an integer"),
    .init(ItemsUpdate.self, ["title": 5], "params.id: missing; give id (one item) or ids (several)"),
    .init(ItemsDelete.self, ["ids": ["i1"], "force": true], "params.force: unknown field; expected one of ids"),
    .init(ItemsDelete.self, ["ids": "i1"], "params.ids: expected an array, got a string"),
    .init(ItemsDelete.self, ["ids": ["i1", "i1"]], "params.ids: lists an id twice"),
    .init(ItemsDelete.self, [:], "params.ids: missing"),
    .init(ItemsDuplicate.self, ["ids": ["i1"], "list": "l1"], "params.list: unknown field; expected one of ids"),
    .init(ItemsDuplicate.self, ["ids": []], "params.ids: must not be empty"),
    .init(ItemsDuplicate.self, ["ids": ["i1", "i1"]], "params.ids: lists an id twice"),
    .init(ItemsDuplicate.self, ["ids": ["l1"]], "params.ids[0]: 'l1' is not an item id"),
    .init(ItemsDuplicate.self, ["ids": nil], "params.ids: expected an array, got null"),
    .init(ItemsDuplicate.self, [:], "params.ids: missing"),
    .init(ItemsSkip.self, ["ids": ["i1"], "list": "l1"], "params.list: unknown field; expected one of ids"),
    .init(ItemsSkip.self, ["ids": []], "params.ids: must not be empty"),
    .init(ItemsSkip.self, ["ids": ["i1", "i1"]], "params.ids: lists an id twice"),
    .init(ItemsSkip.self, ["ids": nil], "params.ids: expected an array, got null"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "repeat": ["rule": "FREQ=DAILY"]], "params.repeat.from: missing"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "repeat": ["rule": "FREQ=DAILY", "from": "soon"]],
          "params.repeat.from: unknown anchor 'soon'; expected due, dueFuture or completion"),
    .init(ItemsUpdate.self, ["id": "i1", "repeat": "FREQ=DAILY"], "params.repeat: expected an object, got a string"),
    .init(ItemsUpdate.self, ["id": "i1", "repeat": ["rule": nil, "from": "due"]], "params.repeat.rule: expected a string, got null"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "repeat": ["rule": "FREQ=DAILY", "from": nil]],
          "params.repeat.from: expected a string, got null"),
    .init(ItemsUpdate.self, ["id": "i1", "repeat": ["rule": "FREQ=DAILY", "from": "due", "until": "x"]],
          "params.repeat.until: unknown field; expected one of from, rule, text"),
    .init(ItemsMove.self, ["ids": ["i1"]], "params.before: missing; give an item id, or null for the end of the list"),
    .init(ItemsMove.self, ["ids": ["i1"], "list": 5], "params.before: missing; give an item id, or null for the end of the list"),
    .init(ItemsMove.self, ["ids": ["i1"], "before": nil, "after": 1], "params.after: unknown field; expected one of before, ids, list, parent"),
    .init(ItemsMove.self, ["ids": ["i1"], "before": 5], "params.before: expected a string, got an integer"),
    .init(ItemsMove.self, ["ids": ["i1"], "before": nil, "list": nil], "params.list: expected a string, got null"),
    .init(ItemsMove.self, ["ids": ["i1"], "before": 5, "list": 5], "params.list: expected a string, got an integer"),
    .init(ItemsMove.self, ["before": nil], "params.ids: missing"),
    .init(ItemsMove.self, ["ids": ["i1"], "before": nil, "parent": "l1"], "params.parent: 'l1' is not an item id"),
    .init(ItemsMove.self, ["ids": ["i1"], "before": nil, "parent": false], "params.parent: expected a string, got a boolean"),
    // The list and `before` are read before `parent`; `parent` is not a member of the form by index, `depth` not of this one.
    .init(ItemsMove.self, ["ids": ["i1"], "before": nil, "parent": 5, "list": 5], "params.list: expected a string, got an integer"),
    .init(ItemsMove.self, ["ids": ["i1"], "before": nil, "depth": 1], "params.depth: unknown field; expected one of before, ids, list, parent"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "to": 1, "parent": nil],
          "params.parent: unknown field; expected one of count, depth, from, to, version, view"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "to": 1, "ids": ["i1"]],
          "params.ids: unknown field; expected one of count, depth, from, to, version, view"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "to": 1, "depth": -1], "params.depth: must not be negative"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "to": 1, "depth": "1"], "params.depth: expected an integer, got a string"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "to": 1, "depth": nil], "params.depth: expected an integer, got null"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "to": 1, "depth": 1.5],
          "params.depth: expected an integer, got a number with a fraction or exponent"),
    // `to` is read before `depth`.
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "depth": -1], "params.to: missing"),

    .init(ItemsMove.self, ["view": nil, "version": 1, "from": 0, "to": 1], "params.view: expected a string, got null"),
    .init(ItemsMove.self, ["view": 5, "version": 1, "from": 0, "to": 1], "params.view: expected a string, got an integer"),
    .init(ItemsMove.self, ["view": "v1", "from": 0, "to": 1], "params.version: missing"),
    .init(ItemsMove.self, ["view": "v1", "version": "1", "from": 0, "to": 1], "params.version: expected an integer, got a string"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 1.5, "to": 1],
          "params.from: expected an integer, got a number with a fraction or exponent"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": .double(1e19), "to": 1],
          "params.from: out of range; integers must lie within -2^63 ..< 2^63"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "to": 1, "count": nil], "params.count: expected an integer, got null"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "from": 0], "params.to: missing"),
    .init(ItemsMove.self, ["view": "v1", "version": 1, "to": 0, "count": "x"], "params.from: missing"),
]

/// `items/indent` and `items/outdent` take the same params and refuse them alike.
private let indents: [BadParams] = [ItemsIndent.self, ItemsOutdent.self].flatMap { (type: any ProtocolValue.Type) -> [BadParams] in [
    .init(type, [:], "params.ids: missing"),
    .init(type, ["ids": []], "params.ids: must not be empty"),
    .init(type, ["ids": ["i1", "i2", "i1"]], "params.ids: lists an id twice"),
    .init(type, ["ids": nil], "params.ids: expected an array, got null"),
    .init(type, ["ids": "i1"], "params.ids: expected an array, got a string"),
    .init(type, ["ids": ["i1", "l2"]], "params.ids[1]: 'l2' is not an item id"),
    .init(type, ["ids": .array((1...100_001).map { .string("i\($0)") })], "params.ids: at most 100000 ids per request"),
    .init(type, ["ids": ["i1"], "parent": "i2"], "params.parent: unknown field; expected one of ids"),
    .init(type, ["ids": ["i1"], "view": "v1"], "params.view: unknown field; expected one of ids"),
]}

/// `view/collapse` and `view/expand` take the same params and refuse them alike.
private let collapses: [BadParams] = [ViewCollapse.self, ViewExpand.self].flatMap { (type: any ProtocolValue.Type) -> [BadParams] in [
    .init(type, ["view": "v1"], "params.ids: missing; give ids (items) or all: true (every item)"),
    .init(type, ["ids": ["i1"]], "params.view: missing"),
    .init(type, ["all": true], "params.view: missing"),
    .init(type, ["view": "i1", "all": true], "params.view: 'i1' is not a view id"),
    .init(type, ["view": "v1", "ids": ["i1"], "all": true], "params: give ids or all, not both"),
    .init(type, ["view": "v1", "ids": ["i1"], "all": false], "params: give ids or all, not both"),
    .init(type, ["view": "v1", "all": false], "params.all: must be true; to name items, give ids instead"),
    .init(type, ["view": "v1", "all": nil], "params.all: expected a boolean, got null"),
    .init(type, ["view": "v1", "all": "true"], "params.all: expected a boolean, got a string"),
    .init(type, ["view": "v1", "all": 1], "params.all: expected a boolean, got an integer"),
    .init(type, ["view": "v1", "ids": []], "params.ids: must not be empty"),
    .init(type, ["view": "v1", "ids": ["i3", "i3"]], "params.ids: lists an id twice"),
    .init(type, ["view": "v1", "ids": nil], "params.ids: expected an array, got null"),
    .init(type, ["view": "v1", "ids": ["v1"]], "params.ids[0]: 'v1' is not an item id"),
    .init(type, ["view": "v1", "ids": .array((1...100_001).map { .string("i\($0)") })], "params.ids: at most 100000 ids per request"),
    .init(type, ["view": "v1", "all": true, "depth": 1], "params.depth: unknown field; expected one of all, ids, view"),
    // Every member's type before the choice: a bad `all` beside good `ids` names `all`; the view first.
    .init(type, ["view": "v1", "ids": ["i1"], "all": nil], "params.all: expected a boolean, got null"),
    .init(type, ["view": 5, "ids": 5], "params.view: expected a string, got an integer"),
    .init(type, ["view": "v1", "ids": [], "all": true], "params.ids: must not be empty"),
]}

private let views: [BadParams] = [
    .init(ListsOpen.self, ["list": "l1", "colour": 1], "params.colour: unknown field; expected one of filter, group, list, sections, smartList, sort, window"),
    .init(ListsOpen.self, [:], "params.list: missing; give list (a list id), group (a smart group) or smartList (a smart list id)"),
    .init(ListsOpen.self, ["list": "l1", "group": "all"], "params: give one of list, group and smartList, not several"),
    .init(ListsOpen.self, ["list": nil], "params.list: expected a string, got null"),
    .init(ListsOpen.self, ["list": nil, "group": "all"], "params.list: expected a string, got null"),
    .init(ListsOpen.self, ["list": "l1", "group": nil], "params.group: expected a string, got null"),
    .init(ListsOpen.self, ["list": "inbox"], "params.list: 'inbox' is not a list id"),
    .init(ListsOpen.self, ["group": "tomorrow"], "params.group: unknown group 'tomorrow'; expected one of today, scheduled, overdue, all, completed"),
    .init(ListsOpen.self, ["list": "l1", "sort": "title"], "params.sort: expected an object, got a string"),
    .init(ListsOpen.self, ["list": "l1", "sort": nil], "params.sort: expected an object, got null"),
    .init(ListsOpen.self, ["list": "l1", "sort": [:]], "params.sort.by: missing"),
    .init(ListsOpen.self, ["list": "l1", "sort": ["by": "size"]],
          "params.sort.by: unknown sort 'size'; expected one of manual, title, due, priority, created, modified"),
    .init(ListsOpen.self, ["list": "l1", "sort": ["by": "title", "direction": "up"]],
          "params.sort.direction: expected ascending or descending, got 'up'"),
    .init(ListsOpen.self, ["list": "l1", "sort": ["by": "title", "direction": nil]], "params.sort.direction: expected a string, got null"),
    .init(ListsOpen.self, ["list": "l1", "sort": ["by": "title", "order": "up"]],
          "params.sort.order: unknown field; expected one of by, direction"),
    .init(ListsOpen.self, ["list": "l1", "filter": nil], "params.filter: expected an object, got null"),
    .init(ListsOpen.self, ["list": "l1", "filter": "x"], "params.filter: expected an object, got a string"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["tag": "home"]],
          "params.filter.tag: unknown field; expected one of done, dueAfter, dueBefore, priorityAtLeast, tagsAllOf, tagsAnyOf, text"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["done": "maybe"]], "params.filter.done: expected any, done or notDone, got 'maybe'"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["done": true]], "params.filter.done: expected a string, got a boolean"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["priorityAtLeast": "urgent"]],
          "params.filter.priorityAtLeast: unknown priority 'urgent'; expected none, low, medium or high"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["tagsAllOf": [1]]], "params.filter.tagsAllOf[0]: expected a string, got an integer"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["tagsAnyOf": "home"]], "params.filter.tagsAnyOf: expected an array, got a string"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["text": 5]], "params.filter.text: expected a string, got an integer"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["dueBefore": nil]], "params.filter.dueBefore: expected a string, got null"),
    .init(ListsOpen.self, ["list": "l1", "filter": ["dueAfter": 5]], "params.filter.dueAfter: expected a string, got an integer"),
    // The filter reads `done` first, then the members in order.
    .init(ListsOpen.self, ["list": "l1", "filter": ["text": 5, "done": "maybe"]],
          "params.filter.done: expected any, done or notDone, got 'maybe'"),
    .init(ListsOpen.self, ["list": "l1", "sections": "byDue"],
          "params.sections: unknown sections 'byDue'; expected one of none, dueBucket, priority, list, done"),
    .init(ListsOpen.self, ["list": "l1", "window": []], "params.window: expected an object, got an array"),
    .init(ListsOpen.self, ["list": "l1", "window": ["start": "0", "end": 1]], "params.window.start: expected an integer, got a string"),
    .init(ListsOpen.self, ["list": "l1", "window": ["start": -1, "end": 1]], "params.window.start: must not be negative"),
    .init(ListsOpen.self, ["list": "l1", "window": ["start": 5, "end": 4]], "params.window.end: must not be less than start"),
    .init(ListsOpen.self, ["list": "l1", "window": ["start": 0, "end": 1001]], "params.window: must span at most 1000 rows, got 1001"),
    .init(ListsOpen.self, ["list": "l1", "window": ["start": 0]], "params.window.end: missing"),
    .init(ListsOpen.self, ["list": "l1", "window": ["start": .double(1e19), "end": 1]],
          "params.window.start: out of range; integers must lie within -2^63 ..< 2^63"),
    .init(ListsOpen.self, ["list": "l1", "window": ["start": 0, "end": 1, "size": 1]],
          "params.window.size: unknown field; expected one of end, start"),
    // In the order the server reads them: the source, sort, filter, sections, window.
    .init(ListsOpen.self, ["window": ["start": -1, "end": 0], "sort": ["by": "size"], "list": "l1"],
          "params.sort.by: unknown sort 'size'; expected one of manual, title, due, priority, created, modified"),
    .init(ListsOpen.self, ["window": [], "sections": "x", "group": "all"],
          "params.sections: unknown sections 'x'; expected one of none, dueBucket, priority, list, done"),
    .init(ViewSetWindow.self, ["view": "v1"], "params.window: missing"),
    .init(ViewSetWindow.self, ["window": ["start": 0, "end": 1]], "params.view: missing"),
    .init(ViewSetWindow.self, ["view": "v1", "window": ["start": 0, "end": 1001]], "params.window: must span at most 1000 rows, got 1001"),
    .init(ViewSetWindow.self, ["view": "v1", "window": ["start": 0, "end": 1], "scroll": 1],
          "params.scroll: unknown field; expected one of view, window"),
    .init(ViewSort.self, ["view": "v1"], "params.sort: missing"),
    .init(ViewSort.self, ["sort": ["by": "title"]], "params.view: missing"),
    // The sort is read before the view.
    .init(ViewSort.self, ["view": 5, "sort": ["by": "size"]],
          "params.sort.by: unknown sort 'size'; expected one of manual, title, due, priority, created, modified"),
    .init(ViewFilter.self, ["view": "v1", "filter": ["done": "maybe"]], "params.filter.done: expected any, done or notDone, got 'maybe'"),
    .init(ViewFilter.self, ["filter": nil], "params.view: missing"),
    .init(ViewFilter.self, ["view": 5, "filter": 5], "params.filter: expected an object, got an integer"),
    .init(ViewFilter.self, ["view": "v1", "sort": nil], "params.sort: unknown field; expected one of filter, view"),
    .init(ViewSections.self, ["view": "v1"], "params.sections: missing"),
    .init(ViewSections.self, ["view": "v1", "sections": "tags"],
          "params.sections: unknown sections 'tags'; expected one of none, dueBucket, priority, list, done"),
    .init(ViewSections.self, ["view": 5, "sections": nil], "params.sections: expected a string, got null"),
    .init(ViewSnapshot.self, [:], "params.view: missing"),
    .init(ViewSnapshot.self, ["view": "v0"], "params.view: 'v0' is not a view id"),
    .init(ViewSnapshot.self, ["view": "i1"], "params.view: 'i1' is not a view id"),
    .init(ViewSnapshot.self, ["view": "v1", "version": 1], "params.version: unknown field; expected one of view"),
    .init(ViewLocate.self, ["view": "v1"], "params.id: missing"),
    .init(ViewLocate.self, ["id": "i1"], "params.view: missing"),
    .init(ViewLocate.self, ["view": "v1", "id": "l1"], "params.id: 'l1' is not an item id"),
    .init(ViewLocate.self, ["view": "v1", "id": nil], "params.id: expected a string, got null"),
    .init(ViewLocate.self, ["view": "v1", "id": "i1", "window": [:]], "params.window: unknown field; expected one of id, view"),
    .init(ViewClose.self, ["view": 5], "params.view: expected a string, got an integer"),
    .init(ViewClose.self, ["view": "v18446744073709551616"], "params.view: 'v18446744073709551616' is out of range; view ids number from 1 to 2^64 - 1"),
]

/// LSP's own messages, both ways, and the capabilities a client reads.
private let lsp: [BadParams] = [
    .init(SetTrace.self, [:], "params.value: missing"),
    .init(SetTrace.self, ["value": "loud"], "params.value: expected off, messages or verbose, got 'loud'"),
    .init(SetTrace.self, ["value": nil], "params.value: expected a string, got null"),
    .init(SetTrace.self, ["value": 1], "params.value: expected a string, got an integer"),
    .init(SetTrace.self, ["value": "off", "level": 1], "params.level: unknown field; expected one of value"),
    .init(SetTrace.self, [], "params: expected an object, got an array"),
    .init(Progress.self, ["value": ["kind": "end"]], "params.token: missing"),
    .init(Progress.self, ["token": true, "value": ["kind": "end"]], "params.token: expected an integer or a string, got a boolean"),
    .init(Progress.self, ["token": 1], "params.value: missing"),
    .init(Progress.self, ["token": 1, "value": ["kind": "end"], "done": true], "params.done: unknown field; expected one of token, value"),
    .init(Progress.self, ["token": 1, "value": "end"], "params.value: expected an object, got a string"),
    .init(Progress.self, ["token": 1, "value": [:]], "params.value.kind: missing"),
    .init(Progress.self, ["token": 1, "value": ["kind": "middle"]], "params.value.kind: expected begin, report or end, got 'middle'"),
    .init(Progress.self, ["token": 1, "value": ["kind": "begin", "title": "t", "cancellable": true, "percentage": 0]],
          "params.value.cancellable: taskls's work is never cancellable"),
    .init(Progress.self, ["token": 1, "value": ["kind": "begin", "title": "t", "cancellable": false, "percentage": 5]],
          "params.value.percentage: begins at 0"),
    .init(Progress.self, ["token": 1, "value": ["kind": "begin", "cancellable": false, "percentage": 0]], "params.value.title: missing"),
    .init(Progress.self, ["token": 1, "value": ["kind": "report", "percentage": 101]], "params.value.percentage: must lie within 0...100"),
    .init(Progress.self, ["token": 1, "value": ["kind": "report"]], "params.value.percentage: missing"),
    .init(Progress.self, ["token": 1, "value": ["kind": "end", "percentage": 100]],
          "params.value.percentage: unknown field; expected one of kind, message"),
    .init(Progress.self, ["token": 1, "value": ["kind": "end", "message": nil]], "params.value.message: expected a string, got null"),
    .init(LogMessage.self, ["type": 5, "message": "m"], "params.type: expected 1, 2, 3 or 4, got 5"),
    .init(LogMessage.self, ["type": "error", "message": "m"], "params.type: expected an integer, got a string"),
    .init(LogMessage.self, ["type": 1], "params.message: missing"),
    .init(LogMessage.self, ["type": 1, "message": "m", "level": 1], "params.level: unknown field; expected one of message, type"),
    .init(ShowMessage.self, ["message": "m"], "params.type: missing"),
    .init(ShowMessage.self, ["type": 0, "message": "m"], "params.type: expected 1, 2, 3 or 4, got 0"),
    .init(ShowMessage.self, ["type": 1, "message": nil], "params.message: expected a string, got null"),
    .init(ShowMessage.self, ["type": 1, "message": "m", "actions": []], "params.actions: unknown field; expected one of message, type"),
    .init(ServerCapabilities.self, [:], "params.taskls: missing"),
    .init(ServerCapabilities.self, ["taskls": capabilities, "experimental": nil], "params.experimental: expected an object, got null"),
    .init(ServerCapabilities.self, ["taskls": capabilities, "experimental": ["taskls": 5]],
          "params.experimental.taskls: expected an object, got an integer"),
    .init(ServerCapabilities.self, ["taskls": capabilities, "experimental": ["other": 1, "taskls": capabilities]],
          "params.experimental.other: unknown field; expected one of taskls"),
    .init(ServerCapabilities.self, ["taskls": capabilities, "hoverProvider": true],
          "params.hoverProvider: unknown field; expected one of experimental, taskls"),
    .init(ExperimentalCapabilities.self, [:], "params.taskls: missing"),
    .init(ExperimentalCapabilities.self, ["taskls": ["protocolVersion": 1, "requests": []]], "params.taskls.notifications: missing"),
]

private let capabilities: JSON = ["protocolVersion": 1, "requests": ["server/ping"], "notifications": ["view/changed"]]

/// The taskls notifications the server sends, as a client reads them.
private let serverNotifications: [BadParams] = [
    .init(ViewChanged.self, ["version": 1, "state": "ready", "count": 0, "window": ["start": 0, "end": 1], "ops": []], "params.view: missing"),
    .init(ViewChanged.self, ["view": "v1", "version": -1, "state": "ready", "count": 0, "window": ["start": 0, "end": 1], "ops": []],
          "params.version: must not be negative"),
    .init(ViewChanged.self, ["view": "v1", "version": 1, "state": "gone", "count": 0, "window": ["start": 0, "end": 1], "ops": []],
          "params.state: expected ready, loading, closed or error, got 'gone'"),
    .init(ViewChanged.self, ["view": "v1", "version": 1, "state": "ready", "window": ["start": 0, "end": 1], "ops": []], "params.count: missing"),
    .init(ViewClosed.self, ["view": "v1"], "params.reason: missing"),
    .init(ViewClosed.self, ["view": "l1", "reason": "listDeleted"], "params.view: 'l1' is not a view id"),
    .init(ListsChanged.self, ["lists": [], "groups": []], "params.revision: missing"),
]

/// Items and rows as a client reads them: the tree's members are always present, counts and depths not negative.
private let itemsAndRows: [BadParams] = [
    .init(ItemRow.self, row(without: "parent"), "params.parent: missing"),
    .init(ItemRow.self, row(without: "depth"), "params.depth: missing"),
    .init(ItemRow.self, row(without: "context"), "params.context: missing"),
    .init(ItemRow.self, row(with: "depth", -1), "params.depth: must not be negative"),
    .init(ItemRow.self, row(with: "children", -2), "params.children: must not be negative"),
    .init(ItemRow.self, row(with: "openChildren", "1"), "params.openChildren: expected an integer, got a string"),
    .init(ItemRow.self, row(with: "parent", "l1"), "params.parent: 'l1' is not an item id"),
    .init(ItemRow.self, row(with: "collapsed", nil), "params.collapsed: expected a boolean, got null"),
    .init(ItemRow.self, row(with: "hasChildren", 1), "params.hasChildren: expected a boolean, got an integer"),
    .init(ItemRow.self, row(with: "ancestors", []),
          "params.ancestors: unknown field; expected one of children, collapsed, context, depth, done, due, dueLocal, hasAlerts, hasChildren, hasNotes, id, kind, list, openChildren, parent, priority, repeat, revision, tags, title"),
    .init(Item.self, item(without: "parent"), "params.parent: missing"),
    .init(Item.self, item(without: "openChildren"), "params.openChildren: missing"),
    .init(Item.self, item(with: "children", -1), "params.children: must not be negative"),
    .init(Item.self, item(with: "parent", 7), "params.parent: expected a string, got an integer"),
    .init(ItemRow.self, row(without: "repeat"), "params.repeat: missing"),
    .init(Item.self, item(without: "occurrences"), "params.occurrences: missing"),
    .init(Item.self, item(with: "occurrences", ["completed": -1, "skipped": 0, "recent": []]), "params.occurrences.completed: must not be negative"),
    .init(Item.self, item(with: "occurrences", ["completed": 1, "skipped": 0, "recent": [["due": "2026-11-26", "outcome": "done", "at": "t"]]]),
          "params.occurrences.recent[0].outcome: unknown outcome 'done'; expected completed or skipped"),
]

private let fullRow = ItemRow(id: ItemID(2), list: ListID(1), parent: ItemID(1), depth: 1, title: "t", revision: 1).json
private let fullItem = Item(id: ItemID(2), list: ListID(1), parent: ItemID(1), title: "t", created: "c", modified: "m", revision: 1).json

private func replacing(_ object: JSON, _ key: String, _ value: JSON?) -> JSON {
    guard case .object(var members) = object else { return object }
    members[key] = value
    return .object(members)
}

private func row(without key: String) -> JSON { replacing(fullRow, key, nil) }
private func row(with key: String, _ value: JSON) -> JSON { replacing(fullRow, key, value) }
private func item(without key: String) -> JSON { replacing(fullItem, key, nil) }
private func item(with key: String, _ value: JSON) -> JSON { replacing(fullItem, key, value) }

private let text: [BadParams] = [
    .init(TextParseItem.self, [:], "params.text: missing"),
    .init(TextParseItem.self, ["text": 3], "params.text: expected a string, got an integer"),
    .init(TextParseItem.self, ["text": nil], "params.text: expected a string, got null"),
    .init(TextParseItem.self, ["text": "x", "due": "fri"], "params.due: unknown field; expected one of list, text"),
    .init(TextParseItem.self, ["text": "x", "list": "i3"], "params.list: 'i3' is not a list id"),
    .init(TextParseItem.self, ["text": "x", "list": nil], "params.list: expected a string, got null"),
    .init(ItemTextFields.self, ["colour": "red"],
          "params.colour: unknown field; expected one of alerts, due, list, notes, priority, repeat, tags, title"),
    .init(ItemTextFields.self, ["alerts": nil], "params.alerts: expected an array, got null"),
    .init(ItemTextFields.self, ["alerts": [["offset": "-60"]]], "params.alerts[0].offset: expected an integer, got a string"),
    .init(ItemTextFields.self, ["alerts": [["at": "x", "offset": -60]]], "params.alerts[0]: give at or offset, not both"),
    .init(TextParseFilter.self, [:], "params.text: missing"),
    .init(TextParseFilter.self, ["text": ["#home"]], "params.text: expected a string, got an array"),
    .init(TextParseFilter.self, ["text": "x", "list": "l1"], "params.list: unknown field; expected one of text"),
]

private let reminders: [BadParams] = [
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "alerts": [["offset": "5"]]], "params.alerts[0].offset: expected an integer, got a string"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "alerts": [[:]]], "params.alerts[0]: give at (an instant) or offset (minutes from the due)"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "alerts": [["offset": 1, "at": "x"]]], "params.alerts[0]: give at or offset, not both"),
    .init(ItemsCreate.self, ["list": "l1", "title": "t", "alerts": [["in": 1]]], "params.alerts[0].in: unknown field; expected one of at, offset"),
    .init(ItemsUpdate.self, ["id": "i1", "alerts": nil], "params.alerts: expected an array, got null"),
    .init(RemindersWatch.self, [:], "params.watch: missing"),
    .init(RemindersWatch.self, ["watch": "yes"], "params.watch: expected a boolean, got a string"),
    .init(RemindersList.self, ["all": true], "params.all: unknown field; this method takes no params"),
    .init(RemindersDismiss.self, ["item": "i1"], "params.fireAt: missing"),
    .init(RemindersDismiss.self, ["item": "l1", "fireAt": "x"], "params.item: 'l1' is not an item id"),
    .init(RemindersSnooze.self, ["item": "i1", "fireAt": "x"], "params.until: missing; give until (an instant) or minutes"),
    .init(RemindersSnooze.self, ["item": "i1", "fireAt": "x", "minutes": 0], "params.minutes: must be 1 to 527040 (366 days)"),
    .init(RemindersSnooze.self, ["item": "i1", "fireAt": "x", "minutes": 5, "until": "y"], "params: give until or minutes, not both"),
    .init(ReminderFired.self, ["alert": ["offset": 1], "fireAt": "x", "late": false], "params.item: missing"),
]

private let exchange: [BadParams] = [
    .init(StoreImport.self, ["text": "x"], "params.format: missing"),
    .init(StoreImport.self, ["format": "csv", "text": "x"], "params.format: unknown format 'csv'; expected one of taskwarrior, todotxt, ics, json"),
    .init(StoreImport.self, ["format": "ics"], "params.path: missing; give path (a file) or text"),
    .init(StoreImport.self, ["format": "ics", "path": "a.ics"], "params.path: must be an absolute path"),
    .init(StoreImport.self, ["format": "ics", "path": "/a.ics", "text": ""], "params: give path or text, not both"),
    .init(StoreImport.self, ["format": "ics", "text": "", "into": "i1"], "params.into: 'i1' is not a list id"),
    .init(StoreImport.self, ["format": "ics", "text": "", "dryRun": "yes"], "params.dryRun: expected a boolean, got a string"),
    .init(StoreExport.self, [:], "params.format: missing"),
    .init(StoreExport.self, ["format": "json", "path": "out.json"], "params.path: must be an absolute path"),
    .init(StoreExport.self, ["format": "json", "lists": []], "params.lists: must not be empty"),
    .init(StoreExport.self, ["format": "json", "lists": ["l1", "l1"]], "params.lists: lists an id twice"),
    .init(SyncNow.self, ["lists": []], "params.lists: must not be empty"),
    .init(SyncNow.self, ["lists": ["l1", "l1"]], "params.lists: lists an id twice"),
    .init(SyncNow.self, ["lists": ["i1"]], "params.lists[0]: 'i1' is not a list id"),
    .init(SyncNow.self, ["confirm": "yes"], "params.confirm: expected a boolean, got a string"),
]

private let everyTable = lifecycle + noParams + server + lists + smartLists + items + indents + views + collapses + text + lsp + serverNotifications + itemsAndRows
    + reminders + exchange

@Test(arguments: everyTable)
func badParamsAreRefusedWithTodaysMessage(_ bad: BadParams) {
    guard let error = refusal(bad.type, bad.params) else {
        Issue.record("accepted: \(bad.params.text)")
        return
    }
    #expect(error.code == .invalidParams)
    #expect(error.message == bad.message)
}

@Test func theTablesCoverEveryParamsTypeThatCanBeRefused() {
    let tested = Set(everyTable.map { String(reflecting: $0.type) })
    // Only the lifecycle notifications and `shutdown` accept anything at all.
    let acceptsAnything: Set<String> = [Initialized.self, Exit.self, Shutdown.self].map { String(reflecting: $0) }.reduce(into: []) { $0.insert($1) }
    var untested: [String] = []
    let notifications = ProtocolCatalog.clientNotifications + ProtocolCatalog.serverNotifications + ProtocolCatalog.lspServerNotifications
    let capabilities: [any ProtocolValue.Type] = [ServerCapabilities.self, ExperimentalCapabilities.self]
    for type in ProtocolCatalog.requests.map({ $0 as any ProtocolValue.Type }) + notifications.map({ $0 as any ProtocolValue.Type })
        + capabilities {
        let name = String(reflecting: type)
        if !tested.contains(name) && !acceptsAnything.contains(name) { untested.append(name) }
    }
    #expect(untested.isEmpty, "no bad params for \(untested)")
    #expect(tested.count >= 35)
}
