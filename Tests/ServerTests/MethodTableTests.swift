/// The schema (`ProtocolCatalog.metaModel()`, what `protocol.json` holds) against the server and protocol.md:
/// the same methods (the server's through what `initialize` advertises and what it answers), the same fields
/// per params type, the same `data.reason` words (the server's sources, its transcripts and protocol.md's).

import Foundation
import Server
import TasklsProtocol
import Testing
import Wire

/// The repository, found from this file's path.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

private func read(_ path: String) throws -> String {
    let url = root.appendingPathComponent(path)
    guard let data = FileManager.default.contents(atPath: url.path) else { throw MethodTableTestError.unreadable(url.path) }
    return String(decoding: data, as: UTF8.self)
}

private enum MethodTableTestError: Error {
    case unreadable(String)
}

// MARK: The schema as these tests read it

private struct SchemaMessage {
    let method: String
    let request: Bool
    let direction: String
    let lsp: Bool
    let params: String
    let codes: Set<Int64>
    let reasons: Set<String>
}

/// The meta model's messages, params types and reasons.
private struct Schema {
    let messages: [SchemaMessage]
    /// The member names of each type a message's params may be: a structure's properties, or every alternative's.
    let fields: [String: [String]]
    let reasons: [String]
    let protocolVersion: JSON?

    init(_ model: JSON) {
        func array(_ json: JSON?) -> [JSON] { if case .array(let elements)? = json { elements } else { [] } }
        func string(_ json: JSON?) -> String { if case .string(let text)? = json { text } else { "" } }
        var messages: [SchemaMessage] = []
        for (key, request) in [("requests", true), ("notifications", false)] {
            for entry in array(model[key]) {
                messages.append(SchemaMessage(
                    method: string(entry["method"]), request: request, direction: string(entry["messageDirection"]),
                    lsp: entry["lsp"] == true, params: string(entry["params"]?["name"]),
                    codes: Set(array(entry["errorCodes"]).compactMap { if case .integer(let code) = $0 { code } else { nil } }),
                    reasons: Set(array(entry["reasons"]).map(string))))
            }
        }
        self.messages = messages
        var fields: [String: [String]] = [:]
        for structure in array(model["structures"]) {
            fields[string(structure["name"])] = array(structure["properties"]).map { string($0["name"]) }
        }
        for alternative in array(model["alternatives"]) {
            let items = array(alternative["items"]).map { string($0["name"]) }
            fields[string(alternative["name"])] = items.flatMap { fields[$0] ?? [] }
        }
        self.fields = fields
        reasons = array(model["reasons"]).map { string($0["name"]) }
        protocolVersion = model["metaData"]?["protocolVersion"]
    }

    var requests: [SchemaMessage] { messages.filter(\.request) }

    func message(_ method: String) -> SchemaMessage? { messages.first { $0.method == method } }
}

private let schema = Schema(ProtocolCatalog.metaModel())

// MARK: The server

@Test func theServerAdvertisesAndAnswersExactlyTheSchemasMethods() throws {
    let client = try TestClient(initialize: false)
    let result = try client.request("initialize", ["capabilities": [:]]).get()
    let taskls = result["capabilities"]?["taskls"]
    #expect(taskls != nil && result["capabilities"]?["experimental"]?["taskls"] == taskls)
    #expect(taskls?["protocolVersion"] == schema.protocolVersion)
    let advertised = taskls?["requests"].map { json -> [String] in
        guard case .array(let methods) = json else { return [] }
        return methods.compactMap { if case .string(let method) = $0 { method } else { nil } }
    } ?? []
    #expect(advertised == schema.requests.filter { !$0.lsp }.map(\.method).sorted())
    let notifications = schema.messages.filter { !$0.request && !$0.lsp && $0.direction == "serverToClient" }.map { JSON.string($0.method) }
    #expect(taskls?["notifications"] == .array(notifications.sorted { $0.text < $1.text }))
    #expect(advertised.count >= 24)

    // Every request of the schema is one the server has: it is never answered "method not found".
    var answered = 0
    for request in schema.requests where request.method != "shutdown" {
        let answer = try client.request(request.method, [:])
        #expect(answer.errorCode != .methodNotFound, "\(request.method): the server does not have it")
        answered += 1
    }
    #expect(try client.request("items/rename", [:]).errorCode == .methodNotFound)
    #expect(try client.request("shutdown").errorCode == nil)
    #expect(answered == schema.requests.count - 1)
}

// MARK: The server's sources and transcripts

/// Every `data.reason` word in `Sources/Server` and `Sources/Domain`: `reason: "word"` (not a view's `closed(reason:)`)
/// and the store's `"storeWord"` spellings.
private func reasonsInSources() throws -> Set<String> {
    var words: Set<String> = []
    for folder in ["Sources/Server", "Sources/Domain"] {
        let directory = root.appendingPathComponent(folder)
        guard let files = FileManager.default.enumerator(atPath: directory.path) else { throw MethodTableTestError.unreadable(folder) }
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try read("\(folder)/\(file)")
            for match in text.matches(of: #/(closed\()?reason: "([A-Za-z]+)"/#) where match.output.1 == nil {
                words.insert(String(match.output.2))
            }
            for match in text.matches(of: #/"(store[A-Z][A-Za-z]*)"/#) { words.insert(String(match.output.1)) }
        }
    }
    return words
}

@Test func everyReasonTheServersSourcesSendIsInTheSchema() throws {
    let sent = try reasonsInSources()
    #expect(sent.count >= 20, "only \(sent.count) reasons found")
    #expect(sent.subtracting(schema.reasons).isEmpty, "reasons the schema lacks: \(sent.subtracting(schema.reasons).sorted())")
    #expect(Set(schema.reasons).subtracting(sent).isEmpty,
            "reasons the server never sends: \(Set(schema.reasons).subtracting(sent).sorted())")
}

/// Parses the JSON after a transcript's `-->` or `<--` (and an optional `@NAME`): the server's name and the message.
private func transcriptMessage(_ line: Substring, arrow: String) throws -> (server: String, message: JSON)? {
    guard line.hasPrefix(arrow + " ") else { return nil }
    var rest = line.dropFirst(arrow.count + 1)
    var server = ""
    if rest.hasPrefix("@"), let space = rest.firstIndex(of: " ") {
        server = String(rest[..<space])
        rest = rest[rest.index(after: space)...]
    }
    guard rest.hasPrefix("{") else { return nil }
    return (server, try JSONParser.parse(String(rest)))
}

@Test func everyRefusalInTheTranscriptsIsOneTheSchemaSaysTheMethodCanGet() throws {
    let folder = root.appendingPathComponent("Tests/Transcripts")
    guard let files = FileManager.default.enumerator(atPath: folder.path) else { throw MethodTableTestError.unreadable(folder.path) }
    var refusals = 0
    var reasons: Set<String> = []
    for case let file as String in files where file.hasSuffix(".tx") {
        var pending: [String: String] = [:]
        for line in try read("Tests/Transcripts/\(file)").split(separator: "\n") {
            let line = line.drop { $0 == " " }
            if let (server, message) = try transcriptMessage(line, arrow: "-->"),
               case .string(let method)? = message["method"], let id = message["id"] {
                pending[server + id.text] = method
            }
            guard let (server, message) = try transcriptMessage(line, arrow: "<--"), let error = message["error"],
                  let id = message["id"], let method = pending[server + id.text], let request = schema.message(method),
                  case .integer(let code)? = error["code"] else { continue }
            #expect(request.codes.contains(code), "\(file): \(method) answered \(code), which the schema does not list")
            if case .string(let reason)? = error["data"]?["reason"], !reason.hasPrefix("$") {
                #expect(request.reasons.contains(reason), "\(file): \(method) refused with \(reason), which the schema does not list")
                reasons.insert(reason)
            }
            refusals += 1
        }
    }
    #expect(refusals >= 100, "only \(refusals) refusals in the transcripts")
    #expect(reasons.count >= 10, "only \(reasons.sorted()) in the transcripts")
}

// MARK: protocol.md

/// Where protocol.md documents each method: its own heading `### \`name\` (request)`, a row of the lifecycle table,
/// or a section of several (`LSP conventions`).
private struct Documentation {
    /// Method → what protocol.md says its kind is (`request`, `notification, server → client`), and its text.
    private(set) var methods: [String: (kind: String, text: String)] = [:]
    /// Every heading's section, by the heading's text.
    private(set) var sections: [String: String] = [:]
    let text: String

    /// The sections of protocol.md that document methods without a heading of their own.
    static let sharedSections = [
        "$/cancelRequest": "Cancellation", "$/progress": "LSP conventions", "window/logMessage": "LSP conventions",
        "window/showMessage": "LSP conventions",
    ]

    /// Methods whose params protocol.md gives in another method's section.
    static let sameParams = ["lists/changed": "lists/list"]

    init(_ text: String) {
        self.text = text
        var heading = ""
        var body: [Substring] = []
        func close() {
            let section = body.joined(separator: "\n")
            sections[heading] = section
            if let match = heading.wholeMatch(of: #/### `([^`]+)` \((.+)\)/#) {
                methods[String(match.output.1)] = (String(match.output.2), section)
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                close()
                heading = String(line)
                body = []
            } else {
                body.append(line)
            }
            // The lifecycle table: | `name` (kind) | direction | behaviour |
            if let row = line.wholeMatch(of: #/\| `([^`]+)` \(([a-z]+)\) \| ([^|]+) \|(.*)\|/#) {
                let direction = row.output.3.trimmingCharacters(in: .whitespaces)
                methods[String(row.output.1)] = ("\(row.output.2), \(direction)", String(line))
            }
        }
        close()
    }

    /// What documents `method`, with its kind (nil when it is documented in a shared section, which has none).
    func documentation(of method: String) -> (kind: String?, text: String)? {
        if let entry = methods[method] { return (entry.kind, entry.text) }
        if let heading = Self.sharedSections[method], let section = sections["### \(heading)"], section.contains("`\(method)`") {
            return (nil, section)
        }
        return nil
    }
}

/// The words a text gives as code: identifiers inside backticks, inside quotes, and in fenced blocks.
private func codeWords(_ text: String) -> Set<String> {
    var words: Set<String> = []
    var spans: [Substring] = []
    var fenced = false
    var prose: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
            fenced.toggle()
        } else if fenced {
            spans.append(line)
        } else {
            prose.append(line)
        }
    }
    let unfenced = prose.joined(separator: "\n")
    spans += unfenced.matches(of: #/`([^`]+)`/#).map(\.output.1)
    spans += unfenced.matches(of: #/"([A-Za-z]+)"/#).map(\.output.1)
    for span in spans {
        for word in span.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) { words.insert(String(word)) }
    }
    return words
}

/// The `data.reason` words protocol.md names: the rows of its `data.reason` tables, and the words it gives as
/// `data.reason: "word"`, `` `data.reason` `word` ``, `` reason `word` `` or `` `-32803 word` ``.
private func documentedReasons(_ text: String) -> Set<String> {
    var words: Set<String> = []
    var inTable = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("| `data.reason` |") {
            inTable = true
        } else if inTable, let row = line.wholeMatch(of: #/\| `([A-Za-z]+)` \|.*/#) {
            words.insert(String(row.output.1))
        } else if !line.hasPrefix("|") {
            inTable = false
        }
    }
    for match in text.matches(of: #/data\.reason:\s*"([A-Za-z]+)"/#) { words.insert(String(match.output.1)) }
    for match in text.matches(of: #/data\.reason` `([A-Za-z]+)`/#) { words.insert(String(match.output.1)) }
    for match in text.matches(of: #/reason `([A-Za-z]+)`/#) { words.insert(String(match.output.1)) }
    for match in text.matches(of: #/`-32803 ([A-Za-z]+)`/#) { words.insert(String(match.output.1)) }
    return words
}

@Test func protocolMdDocumentsEveryMethodFieldAndReasonOfTheSchema() throws {
    let documentation = Documentation(try read("protocol.md"))
    var gaps: [String] = []
    var fieldsChecked = 0
    for message in schema.messages {
        guard let documented = documentation.documentation(of: message.method) else {
            let kind = message.request ? "request" : "notification"
            gaps.append("\(message.method): no heading ### `\(message.method)` (\(kind)...) nor a lifecycle row")
            continue
        }
        if let kind = documented.kind {
            let direction = message.direction == "clientToServer" ? "client → server" : "server → client"
            #expect(kind.hasPrefix(message.request ? "request" : "notification"), "\(message.method): protocol.md says (\(kind))")
            #expect(!kind.contains("→") || kind.hasSuffix(direction), "\(message.method): protocol.md says (\(kind)), the schema \(direction)")
        }
        var text = documented.text
        if let other = Documentation.sameParams[message.method], let section = documentation.documentation(of: other) {
            text += "\n" + section.text
        }
        let words = codeWords(text)
        for field in schema.fields[message.params] ?? [] {
            if !words.contains(field) { gaps.append("\(message.method): params member `\(field)` (\(message.params))") }
            fieldsChecked += 1
        }
    }
    let documentedMethods = Set(documentation.methods.keys)
    let schemaMethods = Set(schema.messages.map(\.method))
    #expect(documentedMethods.subtracting(schemaMethods).isEmpty,
            "protocol.md documents methods the schema lacks: \(documentedMethods.subtracting(schemaMethods).sorted())")
    #expect(documentedMethods.count >= 30 && fieldsChecked >= 60, "\(documentedMethods.count) methods, \(fieldsChecked) fields")

    let words = codeWords(documentation.text)
    for reason in schema.reasons where !words.contains(reason) { gaps.append("data.reason `\(reason)`") }
    let named = documentedReasons(documentation.text)
    #expect(named.count >= 15, "only \(named.sorted()) found in protocol.md")
    #expect(named.subtracting(schema.reasons).isEmpty, "protocol.md names reasons the schema lacks: \(named.subtracting(schema.reasons).sorted())")

    for gap in gaps { Issue.record("protocol.md lacks \(gap)") }
}
