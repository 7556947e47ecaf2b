/// `taskls import` and `taskls export`: a file in or out of the store, as one more process on it (a server run
/// on a thread of this one, spoken to in the protocol, so an import is exactly what `store/import` does for an editor).

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import REPL
import Server
import TasklsProtocol
import Wire

/// The command line of `taskls import FILE …` or `taskls export …`, read.
struct ExchangeCommand {
    enum Kind { case importing, exporting }

    var kind: Kind
    var file: String?
    var format: TasklsProtocol.ExchangeFormat?
    var into: String?
    var lists: [String] = []
    var output: String?
    var dryRun = false
    var skipInvalid = false
    var serveArguments: [String] = []

    init(_ kind: Kind, arguments: [String]) throws(UsageError) {
        self.kind = kind
        var arguments = ArraySlice(arguments)
        let name = kind == .importing ? "import" : "export"
        while let argument = arguments.popFirst() {
            switch argument {
            case "--format":
                let text = try nextValue(after: argument, in: &arguments)
                guard let format = TasklsProtocol.ExchangeFormat(rawValue: text) else {
                    throw UsageError("--format: unknown format '\(text)'; expected taskwarrior, todotxt, ics or json")
                }
                self.format = format
            case "--into" where kind == .importing: into = try nextValue(after: argument, in: &arguments)
            case "--dry-run" where kind == .importing: dryRun = true
            case "--skip-invalid" where kind == .importing: skipInvalid = true
            case "--list" where kind == .exporting: lists.append(try nextValue(after: argument, in: &arguments))
            case "-o", "--output":
                guard kind == .exporting else { throw UsageError("unknown option '\(argument)' for import") }
                output = try nextValue(after: argument, in: &arguments)
            case "--store", "--clock", "--log-level":
                serveArguments += [argument, try nextValue(after: argument, in: &arguments)]
            case "-":
                guard kind == .importing, file == nil else { throw UsageError("\(name): unexpected '-'") }
                file = argument
            case let flag where flag.hasPrefix("-"):
                throw UsageError("unknown option '\(flag)' for \(name)")
            default:
                guard kind == .importing, file == nil else { throw UsageError("\(name): unexpected argument '\(argument)'") }
                file = argument
            }
        }
        if kind == .importing {
            guard let file else { throw UsageError("import needs a FILE (or - for standard input)") }
            if format == nil { format = ExchangeFileNames.format(of: file) }
            guard format != nil else {
                throw UsageError("import: cannot tell the format of '\(file)' from its name; give --format taskwarrior, todotxt, ics or json")
            }
        } else if format == nil {
            guard let output, let guessed = ExchangeFileNames.format(of: output, exporting: true) else {
                throw UsageError("export needs --format taskwarrior, todotxt, ics or json")
            }
            format = guessed
        }
    }

    /// Runs the command; returns the exit code (0 done, 1 refused or failed).
    func run() -> Int32 {
        var options: ServerOptions
        do {
            options = try ServeCommand(arguments: serveArguments).options
        } catch {
            fail(error.message)
        }
        // A command that reads or writes the store once does not sync it (`taskls sync now` does).
        options.syncInterval = 0
        let client = ProtocolSession(options: options)
        defer { client.stop() }
        do throws(ResponseError) {
            let overview = try client.start()
            switch kind {
            case .importing: return try runImport(client, overview)
            case .exporting: return try runExport(client, overview)
            }
        } catch {
            writeStandardError("taskls: \(error.message)\n")
            return 1
        }
    }

    private func list(named name: String, in overview: Overview) throws(ResponseError) -> ListID {
        if let list = overview.lists.first(where: { $0.name == name }) { return list.id }
        if let list = overview.lists.first(where: { $0.id.description == name }) { return list.id }
        throw ResponseError(.invalidParams, "no list named '\(name)' (lists: \(overview.lists.map(\.name).joined(separator: ", ")))")
    }

    private func runImport(_ client: ProtocolSession, _ overview: Overview) throws(ResponseError) -> Int32 {
        let source: StoreImport.Source
        var name: String?
        if file == "-" {
            source = .text(String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self))
            name = "-"
        } else {
            let path = file!.hasPrefix("/") ? file! : FileManager.default.currentDirectoryPath + "/" + file!
            source = .path(path)
            name = file
        }
        let params = StoreImport(format: format!, source: source, name: name,
                                 into: try into.map { name throws(ResponseError) in try list(named: name, in: overview) },
                                 dryRun: dryRun, skipInvalid: skipInvalid)
        let result = try client.request(params)
        let (create, update) = result.dryRun ? ("would create", "would update") : ("created", "updated")
        var lines = ["\(result.dryRun ? "dry run: " : "")\(create) \(result.created), \(update) \(result.updated), \(result.unchanged) unchanged"]
        if !result.createdLists.isEmpty { lines.append("\(create) lists: \(result.createdLists.joined(separator: ", "))") }
        if !result.createdSmartLists.isEmpty { lines.append("\(create) smart lists: \(result.createdSmartLists.joined(separator: ", "))") }
        for problem in result.skipped { lines.append("skipped \(problem.file):\(problem.line): \(problem.field.map { $0 + ": " } ?? "")\(problem.message)") }
        for loss in result.losses { lines.append("\(result.dryRun ? "would lose" : "lost"): \(loss.count) task\(loss.count == 1 ? "" : "s"): \(loss.what) (\(loss.reason))") }
        writeStandardOutput(lines.joined(separator: "\n") + "\n")
        return 0
    }

    private func runExport(_ client: ProtocolSession, _ overview: Overview) throws(ResponseError) -> Int32 {
        var ids: [ListID]?
        if !lists.isEmpty {
            var chosen: [ListID] = []
            for name in lists { chosen.append(try list(named: name, in: overview)) }
            ids = chosen
        }
        let path = output.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        let result = try client.request(StoreExport(format: format!, lists: ids, path: path))
        if let text = result.text { writeStandardOutput(text) }
        var lines = ["exported \(result.tasks) task\(result.tasks == 1 ? "" : "s") in \(result.lists) list\(result.lists == 1 ? "" : "s")\(path.map { " to \($0)" } ?? "")"]
        for loss in result.losses { lines.append("lost: \(loss.count) task\(loss.count == 1 ? "" : "s"): \(loss.what) (\(loss.reason))") }
        writeStandardError(lines.joined(separator: "\n") + "\n")
        return 0
    }
}

/// A server on a thread of this process and the client end of its connection, spoken to one request at a time.
final class ProtocolSession {
    private let client: InMemoryClient
    private let thread: ServerThread
    private var nextID: Int64 = 1

    init(options: ServerOptions) {
        let (serverEnd, clientEnd) = InMemoryConnection.pair()
        client = clientEnd
        thread = ServerThread(connection: serverEnd, options: options)
    }

    /// Initializes (in this process's time zone) and waits until the store is read; returns the lists.
    func start() throws(ResponseError) -> Overview {
        _ = try request(Initialize(processId: Int(getpid()), timeZone: TimeZone.current.identifier))
        client.send(.notification(method: Initialized.method, params: Initialized().json))
        var overview = try request(ListsList(watch: true))
        while true {
            switch overview.store?.state {
            case .loading?:
                overview = try nextOverview()
            case .error(let message, _)?:
                throw ResponseError(.requestFailed, "the store cannot be opened: \(message)")
            default:
                return overview
            }
        }
    }

    /// Sends a request and waits for its answer (notifications meanwhile are dropped).
    func request<Request: RequestMessage>(_ params: Request) throws(ResponseError) -> Request.Result {
        let id = RequestID.integer(nextID)
        nextID += 1
        client.send(.request(id: id, method: Request.method, params: params.json))
        while let message = client.receive(timeout: -1) {
            switch message {
            case .response(id, let result): return try Request.Result(json: result, path: "result")
            case .error(id?, let error): throw error
            default: continue
            }
        }
        throw ResponseError(.internalError, "the server stopped before answering \(Request.method)")
    }

    /// Waits for the next `lists/changed`.
    private func nextOverview() throws(ResponseError) -> Overview {
        while let message = client.receive(timeout: -1) {
            if case .notification(ListsChanged.method, let params?) = message {
                return try ListsChanged(json: params, path: "params").overview
            }
        }
        throw ResponseError(.internalError, "the server stopped while the store loaded")
    }

    /// Shuts the server down and waits for its thread.
    func stop() {
        _ = try? request(Shutdown())
        client.send(.notification(method: Exit.method, params: nil))
        _ = thread.waitForExit(timeout: 10_000)
    }
}
