/// `null` sent for every member of every params type, one at a time (members of nested objects
/// too): accepted only where the schema says the member is nullable (and then it reads as absent,
/// or as "clear" for a patch), refused naming the member everywhere else. An unknown member is
/// refused listing exactly the schema's members, except where the schema says unknown members
/// are ignored.

import TasklsProtocol
import Testing
import Wire

/// A valid params object of each shape each client message takes, with every member present.
private let bases: [(type: any ProtocolValue.Type, params: JSON)] = [
    (Initialize.self, ["processId": 7, "capabilities": ["window": ["workDoneProgress": true]],
                       "initializationOptions": ["timeZone": "UTC", "store": "/tmp/store"], "trace": "off", "workDoneToken": 1]),
    (CancelRequest.self, ["id": 3]),
    (SetTrace.self, ["value": "verbose"]),
    (DebugSetClock.self, ["now": "2026-11-23T08:00:00Z"]),
    (ListsList.self, ["watch": true]),
    (ListsCreate.self, ["name": "N", "color": "blue", "icon": "star", "before": "l1"]),
    (ListsUpdate.self, ["id": "l1", "name": "N", "color": "red", "icon": "x"]),
    (ListsDelete.self, ["id": "l2"]),
    (ListsMove.self, ["ids": ["l1"], "before": "l2"]),
    (ItemsCreate.self, ["list": "l1", "title": "t", "notes": "n", "done": false, "due": "2026-11-23", "priority": "high",
                        "tags": ["home"], "before": "i1", "parent": "i2"]),
    (ItemsGet.self, ["id": "i1"]),
    (ItemsUpdate.self, ["id": "i1", "title": "t", "notes": "n", "done": true, "due": "2026-11-23", "priority": "low", "tags": ["work"]]),
    (ItemsUpdate.self, ["ids": ["i1"], "title": "t"]),
    (ItemsDelete.self, ["ids": ["i1"]]),
    (ItemsMove.self, ["ids": ["i1"], "before": "i2", "list": "l1", "parent": "i3"]),
    (ItemsMove.self, ["view": "v1", "version": 1, "from": 0, "count": 1, "to": 1, "depth": 0]),
    (ItemsIndent.self, ["ids": ["i1", "i2"]]),
    (ItemsOutdent.self, ["ids": ["i1"]]),
    (ListsOpen.self, ["list": "l1", "sort": ["by": "title", "direction": "descending"], "filter": fullFilter,
                      "sections": "priority", "window": ["start": 0, "end": 10]]),
    (ListsOpen.self, ["group": "all"]),
    (ViewSetWindow.self, ["view": "v1", "window": ["start": 0, "end": 5]]),
    (ViewSort.self, ["view": "v1", "sort": ["by": "due", "direction": "ascending"]]),
    (ViewFilter.self, ["view": "v1", "filter": fullFilter]),
    (ViewSections.self, ["view": "v1", "sections": "done"]),
    (ViewSnapshot.self, ["view": "v1"]),
    (ViewClose.self, ["view": "v1"]),
    (ViewCollapse.self, ["view": "v1", "ids": ["i1"]]),
    (ViewCollapse.self, ["view": "v1", "all": true]),
    (ViewExpand.self, ["view": "v1", "ids": ["i1", "i2"]]),
    (ViewExpand.self, ["view": "v1", "all": true]),
    (ServerPing.self, [:]), (StoreStatus.self, [:]), (StoreRetry.self, [:]), (DebugContinueLoading.self, [:]),
    (Undo.self, [:]), (Redo.self, [:]),
]

private let fullFilter: JSON = [
    "text": "o", "done": "notDone", "tagsAnyOf": ["home"], "tagsAllOf": ["home"], "priorityAtLeast": "low",
    "dueBefore": "2027-01-01", "dueAfter": "2020-01-01",
]

/// Where protocol.md gives `null` a meaning: "Type member".
private let meanings: Set<String> = [
    "Initialize processId", "Initialize initializationOptions", "Initialize capabilities", "Initialize capabilities.window",
    "Initialize trace",
    "ListsCreate color", "ListsCreate icon", "ListsCreate before", "ListsUpdate color", "ListsUpdate icon",
    "ListsMove before", "ItemsCreate due", "ItemsCreate before", "ItemsCreate parent", "ItemsUpdate due", "ItemsMove before",
    "ItemsMove parent", "ViewFilter filter",
]

private let schemasByName: [String: TypeSchema] = Dictionary(
    ProtocolCatalog.schemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

/// The object schema a params object of `type` is read with (the alternative it picks, for `items/move`).
private func objectSchema(_ schema: TypeSchema, for params: JSON) -> TypeSchema? {
    switch schema.shape {
    case .object: return schema
    case .alternatives(.presence(let member), let shapes): return params[member] != nil ? shapes.first : shapes.last
    default: return nil
    }
}

/// `json` with the member at `path` (`["sort", "direction"]`) set to `value` (nil: removed).
private func replacing(_ path: ArraySlice<String>, in json: JSON, with value: JSON?) -> JSON {
    guard let first = path.first, case .object(var object) = json else { return json }
    object[first] = path.count == 1 ? value : replacing(path.dropFirst(), in: object[first] ?? [:], with: value)
    return .object(object)
}

private func typeName(_ type: any ProtocolValue.Type) -> String { String(describing: type) }

@Test func nullIsAcceptedExactlyWhereTheSchemaAndProtocolGiveItAMeaning() throws {
    var accepted: Set<String> = []
    var refused = 0
    for (type, params) in bases {
        guard let schema = objectSchema(type.schema, for: params) else {
            Issue.record("\(type) is not an object")
            continue
        }
        var members: [(path: [String], field: FieldSchema)] = schema.fields.filter { params[$0.name] != nil }.map { ([$0.name], $0) }
        // Members of nested objects (sort, filter, window, options, capabilities) too.
        for (path, field) in members {
            guard case .named(let name) = field.type, let nested = schemasByName[name], case .object = nested.shape,
                  case .object(let value)? = params[path[0]] else { continue }
            members += nested.fields.filter { value[$0.name] != nil }.map { (path + [$0.name], $0) }
        }
        for (path, field) in members {
            let label = "\(typeName(type)) \(path.joined(separator: "."))"
            let request = replacing(path[...], in: params, with: .null)
            let location = "params." + path.joined(separator: ".")
            if field.nullable {
                do {
                    let value = try type.init(json: request, path: "params")
                    // null means "absent" (left out when written), or "clear" (written as null): never a value.
                    #expect(path.count > 1 || value.json[path[0]] == nil || value.json[path[0]] == .null, "\(label): \(value.json.text)")
                    accepted.insert(label)
                } catch {
                    Issue.record("\(label): null is nullable in the schema but was refused: \(error.message)")
                }
            } else if let error = refusal(type, request) {
                #expect(error.message.hasPrefix("\(location): ") && error.message.contains("null"), "\(label): \(error.message)")
                refused += 1
            } else {
                Issue.record("\(label): null was accepted, but the schema does not say it may be null")
            }
        }
    }
    #expect(accepted == meanings)
    #expect(refused >= 60, "only \(refused) members were tried")
}

@Test func anUnknownMemberIsRefusedListingTheSchemasMembers() throws {
    var checked = 0
    for (type, params) in bases {
        guard let schema = objectSchema(type.schema, for: params), case .object(let object) = schema.shape else { continue }
        let error = refusal(type, replacing(["zzz"], in: params, with: 1))
        if object.ignoresUnknownFields {
            #expect(error == nil, "\(type): an unknown member was refused: \(String(describing: error))")
        } else if object.fields.isEmpty {
            #expect(error?.message == "params.zzz: unknown field; this method takes no params")
        } else {
            let names = object.fields.map(\.name).sorted().joined(separator: ", ")
            #expect(error?.message == "params.zzz: unknown field; expected one of \(names)", "\(type)")
        }
        checked += 1
    }
    #expect(checked == bases.count)
}

@Test func everyBaseReads() {
    for (type, params) in bases { #expect(refusal(type, params) == nil, "\(type): \(params.text)") }
}
