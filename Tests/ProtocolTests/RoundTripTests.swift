/// Random values of every params, result and notification type, written as JSON text, read back:
/// the value comes back equal, and writing it again gives the same bytes (members in the same order).

import TasklsProtocol
import Testing
import Wire

/// Every message type of the catalog and every result type, each once, and the values whose members a message
/// nests (so each of their members is seen written too).
private let messageTypes: [any ProtocolValue.Type] = {
    var types: [any ProtocolValue.Type] = []
    var names: Set<String> = []
    func add(_ type: any ProtocolValue.Type) {
        if names.insert(String(reflecting: type)).inserted { types.append(type) }
    }
    for request in ProtocolCatalog.requests {
        add(request)
        add(resultType(of: request))
    }
    for notification in ProtocolCatalog.clientNotifications + ProtocolCatalog.serverNotifications
        + ProtocolCatalog.lspServerNotifications { add(notification) }
    for value: any ProtocolValue.Type in [ServerCapabilities.self, ExperimentalCapabilities.self, TasklsCapabilities.self,
                                          ServerInfo.self, ProgressValue.self, ProgressToken.self, MessageType.self] { add(value) }
    return types
}()

private func resultType<Request: RequestMessage>(of request: Request.Type) -> any ProtocolValue.Type { Request.Result.self }

/// The bytes of `json` as the serializer writes them, parsed back.
func reparsed(_ json: JSON) throws -> JSON {
    try json.bytes.withUnsafeBytes { buffer in try JSONParser.parse(buffer) }
}

/// What a round trip of one type saw.
private struct Seen {
    var values = 0
    var distinct: Set<[UInt8]> = []
    var members: Set<String> = []
}

private func roundTrips<Value: ProtocolValue & Arbitrary>(
    _ type: Value.Type, count: Int, random: inout Randomness
) throws -> Seen {
    var seen = Seen()
    for _ in 0..<count {
        let value = Value.arbitrary(&random)
        let bytes = value.json.bytes
        let decoded = try Value(json: try reparsed(value.json), path: "params")
        #expect(decoded == value, "\(Value.self): \(value.json.text) read back as \(decoded.json.text)")
        #expect(decoded.json.bytes == bytes, "\(Value.self): written differently the second time: \(decoded.json.text)")
        seen.values += 1
        seen.distinct.insert(bytes)
        if case .object(let object) = value.json { seen.members.formUnion(object.keys) }
    }
    return seen
}

/// The members a value of a schema may have: an object's fields, or every alternative's.
private func memberNames(_ schema: TypeSchema) -> Set<String> {
    switch schema.shape {
    case .object(let object): Set(object.fields.map(\.name))
    case .alternatives(_, let shapes): shapes.reduce(into: []) { $0.formUnion(memberNames($1)) }
    default: []
    }
}

/// How many values a schema has when that is few: an object of required booleans only (`{"changed": BOOL}` has 2).
private func valueCount(_ schema: TypeSchema) -> Int? {
    guard case .object(let object) = schema.shape, !object.fields.isEmpty,
          object.fields.allSatisfy({ $0.required && !$0.nullable && $0.type == .boolean }) else { return nil }
    return 1 << object.fields.count
}

@Test func everyMessageAndResultTypeReadsBackWhatItWrites() throws {
    var random = Randomness(seed: 0x7A5C_15)
    var total = 0
    var covered = 0
    for type in messageTypes {
        guard let arbitrary = type as? any (ProtocolValue & Arbitrary).Type else {
            Issue.record("\(type) has no random values: add it to Arbitrary*.swift")
            continue
        }
        let seen = try roundTrips(arbitrary, count: 300, random: &random)
        total += seen.values
        // Real work: every member of the type's schema was written by some value.
        let missing = memberNames(type.schema).subtracting(seen.members)
        #expect(missing.isEmpty, "\(type): no random value had \(missing.sorted())")
        if !memberNames(type.schema).isEmpty {
            let wanted = min(3, valueCount(type.schema) ?? 3)
            #expect(seen.distinct.count >= wanted, "\(type): only \(seen.distinct.count) distinct values")
            covered += 1
        }
    }
    #expect(messageTypes.count >= 62, "only \(messageTypes.count) types")
    #expect(covered >= 45, "only \(covered) types with members")
    #expect(total == messageTypes.count * 300)
}

@Test func enumerationsReadBackEveryCase() throws {
    func check<Value: ProtocolValue & CaseIterable>(_ type: Value.Type) throws -> Int {
        guard case .enumeration(let cases) = Value.schema.shape else {
            Issue.record("\(Value.self) is not described as an enumeration")
            return 0
        }
        #expect(cases.map(\.name) == Value.allCases.map { $0.json.text.trimmingQuotes() })
        for value in Value.allCases { #expect(try Value(json: reparsed(value.json), path: "params") == value) }
        return Value.allCases.count
    }
    var cases = 0
    cases += try check(Priority.self)
    cases += try check(SmartGroup.self)
    cases += try check(Sections.self)
    cases += try check(SortField.self)
    cases += try check(SortDirection.self)
    cases += try check(Filter.Completion.self)
    cases += try check(EmptyReason.self)
    cases += try check(Trace.self)
    cases += try check(SpanKind.self)
    cases += try check(WarningReason.self)
    #expect(cases == 4 + 5 + 5 + 6 + 2 + 3 + 2 + 3 + 11 + 11)
}

@Test func messageTypesAreLSPsNumbers() throws {
    #expect(MessageType.allCases.map(\.json) == [1, 2, 3, 4])
    for type in MessageType.allCases { #expect(try MessageType(json: reparsed(type.json), path: "params.type") == type) }
}

extension String {
    func trimmingQuotes() -> String { String(dropFirst().dropLast()) }
}
