/// The catalog against protocol.md: every method once, every type a schema names exists, and the
/// schemas describe what the decoders read.

import TasklsProtocol
import Testing
import TestSupport
import Wire

/// The request methods protocol.md documents: its `### `METHOD` (request)` headings, plus the LSP lifecycle's
/// (`initialize` and `shutdown` are rows of its lifecycle table).
private func documentedRequests() throws -> Set<String> {
    let text = try #require(readTextFile(BuildPaths.repositoryRoot + "/protocol.md"))
    var methods: Set<String> = ["initialize", "shutdown"]
    for line in text.split(separator: "\n") where line.hasPrefix("### `") && line.hasSuffix("` (request)") {
        methods.insert(String(line.dropFirst("### `".count).dropLast("` (request)".count)))
    }
    return methods
}

@Test func theCatalogHasEveryMethodOfProtocolMdOnce() throws {
    let requests = ProtocolCatalog.requests.map { $0.method }
    let documented = try documentedRequests()
    #expect(documented.count > 20, "protocol.md's request headings were not found")
    #expect(Set(requests) == documented)
    #expect(requests.count == documented.count)
    #expect(ProtocolCatalog.clientNotifications.map { $0.method } == ["initialized", "exit", "$/cancelRequest", "$/setTrace"])
    #expect(ProtocolCatalog.serverNotifications.map { $0.method }.sorted() == ["lists/changed", "reminder/fired", "view/changed", "view/closed"])
    #expect(ProtocolCatalog.lspServerNotifications.map { $0.method } == ["$/progress", "window/logMessage", "window/showMessage"])
    // LSP's own: the lifecycle's requests, every client notification, and the server's LSP notifications.
    let lsp = ["initialize", "shutdown"] + ProtocolCatalog.clientNotifications.map { $0.method }
        + ProtocolCatalog.lspServerNotifications.map { $0.method }
    #expect(ProtocolCatalog.lspMethods == Set(lsp))
}

/// Every type a reference names.
private func names(_ reference: TypeReference) -> [String] {
    switch reference {
    case .named(let name): [name]
    case .array(let element): names(element)
    case .oneOf(let choices): choices.flatMap(names)
    default: []
    }
}

private func references(_ schema: TypeSchema) -> [String] {
    switch schema.shape {
    case .object(let object): object.fields.flatMap { names($0.type) }
    case .alternatives(_, let shapes): shapes.flatMap(references)
    case .value(let reference): names(reference)
    default: []
    }
}

@Test func everyNamedTypeIsInTheCatalogOnce() {
    let schemas = ProtocolCatalog.schemas
    let known = Set(schemas.map(\.name))
    #expect(known.count == schemas.count, "a schema name is used twice")
    var referenced = 0
    for schema in schemas {
        #expect(!schema.doc.isEmpty, "\(schema.name) has no doc")
        for name in references(schema) {
            #expect(known.contains(name), "\(schema.name) refers to \(name), which the catalog lacks")
            referenced += 1
        }
        if case .object(let object) = schema.shape {
            #expect(Set(object.fields.map(\.name)).count == object.fields.count, "\(schema.name) lists a member twice")
            for field in object.fields { #expect(!field.doc.isEmpty, "\(schema.name).\(field.name) has no doc") }
            for group in object.exactlyOneOf { #expect(Set(group).isSubset(of: schema.fieldNames), "\(schema.name): \(group)") }
        }
    }
    #expect(schemas.count >= 80, "only \(schemas.count) schemas")
    #expect(referenced >= 100)
}

@Test func theLimitsAreTheServersDocumentedOnes() {
    #expect(ProtocolLimits.windowRows == 1_000)
    #expect(ProtocolLimits.idsPerRequest == 100_000)
    #expect(ListsOpen.defaultWindow == Window(start: 0, end: 100))
}
