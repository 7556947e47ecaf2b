/// ARCHITECTURE.md's claims, checked: every "Architecture Invariant:" says what checks it, and what it names
/// exists; the layering the invariants state holds in the sources (what each module imports, where the REPL
/// reaches past the protocol, and that nothing in the server names a method but its registration).

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TasklsProtocol
import Testing
import TestSupport
import Transcript
import Wire

/// The files under `directory` (an absolute path), as paths relative to it, depth first.
private func files(under directory: String) -> [String] {
    names(in: directory).flatMap { name in
        let inside = files(under: directory + "/" + name)
        return inside.isEmpty ? [name] : inside.map { name + "/" + $0 }
    }
}

/// The repository's Swift files under `directory` (relative to the root): their paths relative to it (the last
/// component is the file's name), with their text.
private func swiftFiles(under directory: String) throws -> [(path: String, text: String)] {
    let root = BuildPaths.repositoryRoot + "/" + directory
    return try files(under: root).filter { $0.hasSuffix(".swift") }.map { path in
        (path, try #require(readTextFile(root + "/" + path), "cannot read \(root)/\(path)"))
    }
}

/// The modules a file imports.
private func imports(_ text: String) -> Set<String> {
    var modules: Set<String> = []
    for line in text.split(separator: "\n") where line.hasPrefix("import ") {
        modules.insert(String(line.dropFirst("import ".count).split(separator: " ").first ?? ""))
    }
    return modules
}

/// Every module the files under `directory` import, with a file that imports it.
private func importedModules(under directory: String) throws -> [String: String] {
    var found: [String: String] = [:]
    for file in try swiftFiles(under: directory) {
        for module in imports(file.text) where found[module] == nil { found[module] = file.path }
    }
    return found
}

@Test func wireImportsNothingOfTasklsAndNoFoundation() throws {
    let modules = try importedModules(under: "Sources/Wire")
    #expect(Set(modules.keys).isSubset(of: ["Glibc", "Darwin", "Synchronization"]), "\(modules)")
    #expect(!modules.isEmpty, "no imports read at all: the scan found no files")
}

@Test func domainImportsNothing() throws {
    let files = try swiftFiles(under: "Sources/Domain")
    #expect(files.count > 30, "only \(files.count) files found")
    #expect(try importedModules(under: "Sources/Domain").isEmpty)
}

@Test func theProtocolModuleImportsOnlyWire() throws {
    let modules = try importedModules(under: "Sources/TasklsProtocol")
    #expect(Set(modules.keys) == ["Wire"], "\(modules)")
}

@Test func theFormatsArePureTextOverTheDomain() throws {
    let modules = try importedModules(under: "Sources/Interchange")
    #expect(Set(modules.keys).isSubset(of: ["Domain", "Wire"]) && modules["Domain"] != nil, "\(modules)")
    #expect(try swiftFiles(under: "Sources/Interchange").count > 20)
}

@Test func theSyncMergeIsPure() throws {
    let modules = try importedModules(under: "Sources/Sync")
    #expect(Set(modules.keys) == ["Domain"], "\(modules)")
}

@Test func onlyCalDAVReachesTheNetworkAndNothingTheServerStartsWithLinksIt() throws {
    // FoundationNetworking brings libcurl and its libraries into a process's start: never into the server's; sync runs
    // as a program of its own, taskls-sync (ARCHITECTURE.md, Sources/CalDAV).
    for directory in ["Wire", "TasklsProtocol", "Domain", "QuickEntry", "Store", "Interchange", "Sync", "Server", "REPL",
                      "Transcript", "TestSupport", "taskls"] {
        let modules = try importedModules(under: "Sources/" + directory)
        #expect(modules["FoundationNetworking"] == nil && modules["CalDAV"] == nil, "\(directory): \(modules)")
    }
    #expect(try importedModules(under: "Sources/CalDAV")["FoundationNetworking"] != nil)
    // And in the built programs: `taskls` loads neither libcurl nor FoundationNetworking; `taskls-sync`, which sync
    // runs as, does.
    func libraries(_ program: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [program]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }
    let server = try libraries(BuildPaths.taskls)
    #expect(server.contains("libc.so") && !server.contains("libcurl") && !server.contains("FoundationNetworking"), "\(server)")
    let sync = try libraries(BuildPaths.executable(named: "taskls-sync"))
    #expect(sync.contains("libcurl") || sync.contains("FoundationNetworking"), "\(sync)")
}

@Test func theREPLReachesDomainAndStoreOnlyWhereItSays() throws {
    // ARCHITECTURE.md: only the demo store touches Store; Domain also for the manual clock and the civil dates.
    let allowed: [String: Set<String>] = [
        "Store": ["DemoStore.swift"],
        "Domain": ["DemoStore.swift", "EmbeddedServer.swift", "REPLCalendar.swift"],
    ]
    for file in try swiftFiles(under: "Sources/REPL") {
        for module in imports(file.text) where allowed[module] != nil {
            let name = String(file.path.split(separator: "/").last ?? "")
            #expect(allowed[module]!.contains(name), "\(file.path) imports \(module)")
        }
    }
}

@Test func nothingInTheServerNamesAMethodButItsRegistration() throws {
    let methods = (ProtocolCatalog.requests.map { $0.method } + ProtocolCatalog.clientNotifications.map { $0.method }
        + ProtocolCatalog.serverNotifications.map { $0.method } + ProtocolCatalog.lspServerNotifications.map { $0.method })
    #expect(methods.count > 30)
    let files = try swiftFiles(under: "Sources/Server")
    #expect(files.count > 20)
    for file in files {
        for method in methods where file.text.contains("\"\(method)\"") {
            Issue.record("\(file.path) names the method \"\(method)\": use its message type (\(method)'s `method`)")
        }
    }
}

@Test func theServerAdvertisesEveryRequestOfTheCatalog() throws {
    let server = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve"])
    defer { server.terminate() }
    #expect(server.send(Initialize().message(id: .integer(1)).json))
    let answer = try #require(server.receive(timeout: 10_000))
    let result = try InitializeResult(json: try #require(answer["result"]), path: "result")
    let catalog = ProtocolCatalog.requests.map { $0.method }.filter { $0 != Initialize.method && $0 != Shutdown.method }
    #expect(result.capabilities.taskls.requests == catalog.sorted())
    #expect(result.capabilities.taskls.notifications == ProtocolCatalog.serverNotifications.map { $0.method }.sorted())
    #expect(result.capabilities.experimental?.taskls == result.capabilities.taskls)
}

/// The paragraphs of ARCHITECTURE.md that state an invariant.
private func invariants() throws -> [String] {
    let text = try #require(readTextFile(BuildPaths.repositoryRoot + "/ARCHITECTURE.md"))
    var paragraphs: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("**Architecture Invariant:**") { current = [] }
        if current != nil {
            if line.trimmingCharacters(in: " ").isEmpty {
                paragraphs.append(current!.joined(separator: " "))
                current = nil
            } else {
                current!.append(line)
            }
        }
    }
    if let current { paragraphs.append(current.joined(separator: " ")) }
    return paragraphs
}

@Test func everyInvariantSaysWhatChecksItAndThatExists() throws {
    let paragraphs = try invariants()
    #expect(paragraphs.count >= 15, "only \(paragraphs.count) invariants found")
    let tests = try swiftFiles(under: "Tests").map(\.text).joined(separator: "\n")
    let transcripts = files(under: BuildPaths.repositoryRoot + "/Tests/Transcripts")
    for paragraph in paragraphs {
        guard let range = paragraph.range(of: "Checked by:") else {
            Issue.record("an invariant does not say what checks it: \(paragraph.prefix(100))…")
            continue
        }
        let checks = paragraph[range.upperBound...]
        let named = checks.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(!named.isEmpty || checks.contains("the compiler") || checks.contains("benchmark"),
                "an invariant names no check: \(paragraph.prefix(100))…")
        for name in named {
            if name.hasSuffix(".tx") {
                #expect(transcripts.contains { $0.hasSuffix(name) }, "no transcript \(name)")
            } else if name.allSatisfy({ $0.isLetter || $0.isNumber }), name.first?.isLowercase == true {
                #expect(tests.contains("func \(name)("), "no test function \(name) (named in ARCHITECTURE.md)")
            }
        }
    }
}

private extension Substring {
    func trimmingCharacters(in characters: String) -> Substring {
        var result = self
        while let first = result.first, characters.contains(first) { result.removeFirst() }
        while let last = result.last, characters.contains(last) { result.removeLast() }
        return result
    }
}
