/// `protocol.json` against the catalog: the checked-in file is what `ProtocolCatalog.metaModel()` generates; the
/// meta model names every message, type, code and reason once, and every type it refers to exists.

import Foundation
import TasklsProtocol
import Testing
import Wire

/// The repository's `protocol.json`, found from this file's path.
private let protocolJSONPath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("protocol.json").path

private let regenerate = "regenerate it with: TASKLS_WRITE_PROTOCOL_JSON=1 swift test --filter protocolJSON"

@Test func protocolJSONIsWhatTheCatalogGenerates() throws {
    let generated = ProtocolCatalog.protocolJSON()
    if ProcessInfo.processInfo.environment["TASKLS_WRITE_PROTOCOL_JSON"] == "1" {
        try generated.write(toFile: protocolJSONPath, atomically: true, encoding: .utf8)
        print("wrote \(protocolJSONPath)")
    }
    guard let stored = FileManager.default.contents(atPath: protocolJSONPath).map({ String(decoding: $0, as: UTF8.self) }) else {
        Issue.record("\(protocolJSONPath) is missing; \(regenerate)")
        return
    }
    if stored != generated {
        // The first line that differs, so the failure says what changed.
        let have = stored.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let want = generated.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = (0..<max(have.count, want.count)).first {
            !have.indices.contains($0) || !want.indices.contains($0) || have[$0] != want[$0]
        } ?? 0
        func text(_ lines: [String]) -> String { lines.indices.contains(line) ? lines[line] : "(end of file)" }
        Issue.record("protocol.json is not what ProtocolCatalog.metaModel() generates: line \(line + 1) is \(text(have)), generated \(text(want)); \(regenerate)")
    }
    // The file is JSON, and reads back as the meta model.
    #expect(try JSONParser.parse(stored) == ProtocolCatalog.metaModel())
}

private let model = ProtocolCatalog.metaModel()

private func entries(_ key: String) -> [JSON] {
    guard case .array(let elements)? = model[key] else {
        Issue.record("the meta model has no array \(key)")
        return []
    }
    return elements
}

private func string(_ json: JSON?) -> String? {
    if case .string(let text)? = json { return text }
    return nil
}

private func strings(_ json: JSON?) -> [String] {
    guard case .array(let elements)? = json else { return [] }
    return elements.compactMap(string)
}

/// Every reference a type makes, anywhere in `json`.
private func references(in json: JSON) -> [String] {
    switch json {
    case .object(let object):
        if string(object["kind"]) == "reference", let name = string(object["name"]) { return [name] }
        return object.members.flatMap { references(in: $0.value) }
    case .array(let elements): return elements.flatMap(references)
    default: return []
    }
}

@Test func theMetaModelHasItsSectionsInOrder() {
    guard case .object(let object) = model else {
        Issue.record("not an object")
        return
    }
    #expect(object.keys == ["metaData", "requests", "notifications", "requestMembers", "structures", "enumerations", "alternatives",
                            "typeAliases", "errorCodes", "reasons"])
    #expect(model["metaData"]?["protocolVersion"] == .integer(Int64(ProtocolCatalog.protocolVersion)))
    #expect(ProtocolCatalog.metaModel() == model, "two calls gave different models")
}

@Test func everyMessageOfTheCatalogIsInTheMetaModelOnce() {
    let requests = entries("requests")
    #expect(requests.compactMap { string($0["method"]) } == ProtocolCatalog.requests.map { $0.method })
    for (request, type) in zip(requests, ProtocolCatalog.requests) {
        #expect(request["messageDirection"] == "clientToServer")
        #expect(request["params"]?["name"] == .string(type.schema.name))
        #expect(request["result"]?["name"] == .string(type.resultSchema.name))
        #expect(request["lsp"] == .bool(type.method == "initialize" || type.method == "shutdown"))
    }
    let notifications = entries("notifications")
    let clientSent = ProtocolCatalog.clientNotifications.map { $0.method }
    let serverSent = (ProtocolCatalog.serverNotifications + ProtocolCatalog.lspServerNotifications).map { $0.method }
    #expect(notifications.compactMap { string($0["method"]) } == clientSent + serverSent)
    for notification in notifications {
        let method = string(notification["method"]) ?? ""
        #expect(notification["messageDirection"] == (clientSent.contains(method) ? "clientToServer" : "serverToClient"), "\(method)")
        #expect(notification["lsp"] == .bool(ProtocolCatalog.lspMethods.contains(method)), "\(method)")
    }
    #expect(notifications.filter { $0["lsp"] == true }.count == 7)
    #expect(strings(.array(entries("requestMembers").map { $0["name"] ?? .null })) == ["workDoneToken", "partialResultToken"])
}

@Test func everyTypeIsDescribedOnceAndEveryReferenceResolves() {
    var described: [String] = []
    for section in ["structures", "enumerations", "alternatives", "typeAliases"] {
        described += entries(section).compactMap { string($0["name"]) }
    }
    #expect(Set(described).count == described.count, "a type is described twice")
    #expect(Set(described).isSuperset(of: ProtocolCatalog.schemas.map(\.name)))
    let referenced = references(in: model)
    #expect(referenced.count >= 150, "only \(referenced.count) references")
    let unknown = Set(referenced).subtracting(described)
    #expect(unknown.isEmpty, "references to types the meta model lacks: \(unknown.sorted())")
    // Every structure's properties are its schema's fields, in order, with their flags.
    let schemas = Dictionary(ProtocolCatalog.schemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var properties = 0
    for structure in entries("structures") {
        guard let name = string(structure["name"]), let schema = schemas[name] else { continue }
        guard case .array(let written)? = structure["properties"] else {
            Issue.record("\(name) has no properties")
            continue
        }
        #expect(written.compactMap { string($0["name"]) } == schema.fields.map(\.name), "\(name)")
        for (property, field) in zip(written, schema.fields) {
            #expect(property["optional"] == .bool(!field.required) && property["nullable"] == .bool(field.nullable), "\(name).\(field.name)")
            #expect(property["documentation"] == .string(field.doc))
            properties += 1
        }
    }
    #expect(properties >= 150, "only \(properties) properties")
    // Alternatives name structures.
    let structures = Set(entries("structures").compactMap { string($0["name"]) })
    for alternative in entries("alternatives") {
        let items = references(in: alternative["items"] ?? .null)
        #expect(items.count >= 2 && Set(items).isSubset(of: structures), "\(alternative.text)")
    }
}

@Test func everyRequestSaysWhatItCanBeRefusedWith() {
    let codes = entries("errorCodes").compactMap { code -> Int64? in
        if case .integer(let value)? = code["code"] { return value }
        return nil
    }
    #expect(codes == [-32700, -32600, -32601, -32602, -32603, -32002, -32800, -32801, -32803])
    let reasons = entries("reasons").compactMap { string($0["name"]) }
    #expect(Set(reasons).count == reasons.count && reasons.count >= 20)
    var used: Set<String> = []
    for request in entries("requests") {
        let method = string(request["method"]) ?? ""
        #expect(request["errorCodes"] != nil && request["reasons"] != nil,
                "\(method): what it can be refused with is unknown; give it an entry in Schema/ProtocolErrors.swift")
        let requestCodes = request["errorCodes"].map { json -> [Int64] in
            guard case .array(let elements) = json else { return [] }
            return elements.compactMap { if case .integer(let value) = $0 { value } else { nil } }
        } ?? []
        let requestReasons = strings(request["reasons"])
        #expect(Set(requestCodes).isSubset(of: codes), "\(method)")
        #expect(requestCodes.contains(-32602), "\(method): every request checks the generic members")
        #expect(requestCodes.contains(-32803) == !requestReasons.isEmpty, "\(method)")
        #expect(requestCodes.contains(-32002) == (method != "initialize"), "\(method)")
        #expect(Set(requestReasons).isSubset(of: reasons), "\(method): \(requestReasons)")
        #expect(requestReasons == reasons.filter(requestReasons.contains), "\(method): reasons out of order")
        used.formUnion(requestReasons)
    }
    // Every reason is one some request can get.
    #expect(used == Set(reasons), "reasons no request gets: \(Set(reasons).subtracting(used).sorted())")
    #expect(ProtocolCatalog.failures(of: "items/move")?.codes.contains(.contentModified) == true)
    #expect(ProtocolCatalog.failures(of: "no/such") == nil)
}

// MARK: The pretty printer

private let prettyCases: [(JSON, String)] = [
    (JSON.null, "null"),
    ([], "[]"),
    ([:], "{}"),
    (["a": 1], "{\n  \"a\": 1\n}"),
    ([1, "x"], "[\n  1,\n  \"x\"\n]"),
    (["a": [], "b": ["c": [true, nil]]], "{\n  \"a\": [],\n  \"b\": {\n    \"c\": [\n      true,\n      null\n    ]\n  }\n}"),
    (["q\"\n": "\u{1}é"], "{\n  \"q\\\"\\n\": \"\\u0001é\"\n}"),
]

@Test(arguments: prettyCases)
func prettyJSONIndentsByTwoSpaces(_ value: JSON, _ text: String) {
    #expect(PrettyJSON.text(value) == text)
}

/// Random JSON, nested up to `depth`.
private func randomJSON(_ random: inout Randomness, depth: Int) -> JSON {
    switch random.int(0...(depth > 0 ? 7 : 5)) {
    case 0: return .null
    case 1: return .bool(random.bool())
    case 2: return .integer(Int64(random.anyInt()))
    case 3: return .double(random.fraction() * 1e6 + 0.5)
    case 4, 5: return .string(random.string())
    case 6: return .array((0..<random.int(0...4)).map { _ in randomJSON(&random, depth: depth - 1) })
    default:
        var object = JSONObject()
        for _ in 0..<random.int(0...4) { object[random.string()] = randomJSON(&random, depth: depth - 1) }
        return .object(object)
    }
}

@Test func prettyJSONReadsBackAsTheValue() throws {
    var random = Randomness(seed: 0x9_2E77)
    var nested = 0
    for _ in 0..<500 {
        let value = randomJSON(&random, depth: 4)
        let text = PrettyJSON.text(value)
        #expect(try JSONParser.parse(text) == value, "\(text)")
        if text.contains("\n    ") { nested += 1 }
    }
    #expect(nested >= 25, "only \(nested) values nested two levels deep")
}
