/// One REPL session: a server in this process, the client's state (overview, open view), and the
/// plumbing every command uses to speak the protocol.

#if canImport(Glibc)
import Glibc
#endif
import Server
import TasklsProtocol
import Wire

/// A terminal client of the taskls protocol. Anything it does goes through requests an editor
/// could send; row numbers are turned into ids from the window, as an editor does.
public final class REPL {
    let options: REPLOptions
    let output: REPLOutput
    var style: Style
    var day: REPLCalendar
    /// Rows per window.
    let page: Int
    private let server: EmbeddedServer
    private var nextID: Int64 = 1
    private let recorder: Recorder?
    /// The lists in their order, as the last `lists/list` or `lists/changed` said.
    var lists: [TaskList] = []
    /// The smart groups with their counts.
    var groups: [GroupSummary] = []
    /// The saved smart lists in their order, with their counts.
    var smartLists: [SmartList] = []
    /// The store's status when the overview came while the store was not ready (lists follow later).
    var overviewStore: StoreStatusResult?
    /// Each shared list's sync state (nil: no list is shared with a CalDAV calendar).
    var syncStates: [ListSyncState]?
    /// The open view, if any.
    var view: ViewModel?
    /// The task the last plain `add` made: `add > TEXT` adds its subtasks.
    var lastAdded: Target?
    /// What notifications changed since the last command finished.
    var notes: [ChangeNote] = []
    /// Lines to print after the command (view closed, and the like).
    var messages: [String] = []
    /// Whether the table should be shown again (a reset, or a change of state).
    var redraw = false
    /// Whether the view's version jumped: fetch a snapshot before showing it.
    var needsSnapshot = false
    /// Whether the current command already showed the table.
    var shown = false
    /// Set by `quit`.
    public private(set) var finished = false
    /// Whether any command failed (a script then exits with 1).
    public private(set) var failed = false
    /// The last progress printed while loading (interactive), in tenths.
    var shownProgress = -1
    /// At a terminal, the output's line count just after the last progress line printed (`REPL+Progress`).
    var progressLineEnd: Int?
    /// The changes this session made, in words, for what undo and redo say.
    var history = StepHistory()

    /// Starts a server as `options` say, initializes it and reads the overview.
    public init(options: REPLOptions, output: REPLOutput, style: Style, storeSetting: StoreLocation, environment: (String) -> String? = StoreLocation.processEnvironment) throws(CommandError) {
        self.options = options
        self.output = output
        self.style = style
        let zone = options.timeZone ?? REPLCalendar.localTimeZoneName(environment: environment)
        day = REPLCalendar(timeZoneName: zone, manualNow: options.clock.flatMap(parseInstant))
        page = options.page ?? 20
        // The server's log would interleave with the REPL's output; what it logs about the store
        // shows in the views' states anyway. `--trace` lets its warnings through.
        let logger = options.trace ? Logger(level: .warning) : Logger.silent
        let manualClock = options.clock.flatMap(EmbeddedServer.manualClock)
        var serverOptions = ServerOptions(logger: logger, manualClock: manualClock, store: storeSetting)
        if options.holdLoad { serverOptions.loadGate = LoadGate() }
        if let path = options.record {
            recorder = try Recorder(path: path, clock: options.clock ?? Recorder.instant(milliseconds: day.now), holdLoad: options.holdLoad)
        } else {
            recorder = nil
        }
        switch storeSetting {
        case .directory(let path): recorder?.storePath = path
        case .clientChoice(let fallback): recorder?.storePath = fallback
        case .memory: break
        }
        server = EmbeddedServer(options: serverOptions)
        do {
            _ = try send(Initialize(timeZone: zone))
        } catch {
            throw CommandError("time zone '\(zone)': \(error.message)")
        }
        notify(Initialized())
        takeOverview(try send(ListsList(watch: true)))
        // Reminders fire in this REPL (one line each, above the prompt in a terminal), once across every process.
        _ = try send(RemindersWatch(watch: true))
    }

    /// Runs one command line; returns whether it succeeded. Errors are printed as one line.
    @discardableResult
    public func execute(_ line: String) -> Bool {
        shown = false
        handleWaitingMessages()
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        var succeeded = true
        if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
            do {
                try Commands.run(trimmed, in: self)
            } catch {
                succeeded = false
                failed = true
                fail(error.message)
            }
        }
        settle()
        return succeeded
    }

    /// Ends the session: `shutdown` and `exit` to the server, then waits for it to stop.
    /// Returns the exit code (1 when a command failed in a script).
    public func finish() -> Int32 {
        if (try? send(Shutdown())) != nil {
            notify(Exit())
        }
        recorder?.finish(exitCode: 0)
        server.stop(timeout: 10_000)
        return failed ? 1 : 0
    }

    // MARK: Output

    /// Prints lines of output.
    func say(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        output.write(lines.joined(separator: "\n") + "\n")
    }

    func say(_ line: String) { say([line]) }

    /// Prints an error: one line, broken at spaces to the width on a terminal (`Style.wrapped`).
    func fail(_ message: String) {
        let line = (style.color ? "\u{1B}[31merror:\u{1B}[0m " : "error: ") + displayed(message)
        output.writeError(style.wrapped(line).joined(separator: "\n") + "\n")
    }

    /// Marks a command as finished (`quit`).
    func markFinished() { finished = true }

    /// List names by id, escaped for printing (`displayed`): only messages and tables read them.
    var listNames: [ListID: String] {
        Dictionary(lists.map { ($0.id, displayed($0.name)) }, uniquingKeysWith: { first, _ in first })
    }

    var renderer: TableRenderer { TableRenderer(style: style, day: day, listNames: listNames, smartListNames: smartListNames) }

    /// Prints the open view's table.
    func showTable() throws(CommandError) {
        guard let view else { throw CommandError("no view is open; open one with: open <list or group> (ls lists them)") }
        say(renderer.render(view))
        // The status line, last, says the loading progress: the next progress rewrites it in place.
        if view.state.isLoading { markProgressLine() }
        shown = true
        redraw = false
        notes.removeAll()
    }

    // MARK: Protocol

    /// Sends a request and waits for its result, handling the notifications that come before it.
    /// A server error becomes a `CommandError` with the server's message; so does a result its type does
    /// not read.
    func send<Request: RequestMessage>(_ request: Request) throws(CommandError) -> Request.Result {
        let id = RequestID.integer(takeID())
        transmit(request.message(id: id))
        let result = try awaitAnswer(id: id, method: Request.method)
        do {
            return try Request.Result(json: result, path: "result")
        } catch {
            throw CommandError("\(Request.method): the server answered what the REPL cannot read: \(error.message)")
        }
    }

    /// Sends a notification.
    func notify<Notification: NotificationMessage>(_ notification: Notification) {
        transmit(notification.message)
    }

    /// Waits for the answer to `id`, as JSON.
    func awaitAnswer(id: RequestID, method: String, printing: Bool = false) throws(CommandError) -> JSON {
        while true {
            guard let message = server.inbox.next(timeout: 120_000) else {
                throw CommandError("the server did not answer \(method)")
            }
            received(message)
            if printing { say("<-- " + displayed(json: message.json.text)) }
            switch message {
            case .response(id, let result):
                return result
            case .error(id, let error):
                throw CommandError(Self.describe(error), reason: error.data?["reason"]?.stringValue)
            case .notification(let name, let params):
                handle(name, params)
            default:
                break
            }
        }
    }

    /// Sends a message, tracing and recording it.
    func transmit(_ message: Message) {
        if options.trace { output.writeError("--> " + displayed(json: message.json.text) + "\n") }
        recorder?.sent(message.json)
        server.send(message)
    }

    /// Traces and records a message from the server.
    private func received(_ message: Message) {
        if options.trace { output.writeError("<-- " + message.json.text + "\n") }
        recorder?.received(message.json)
    }

    /// The id of the next request: the REPL's own and raw ones share one sequence.
    func takeID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Handles every message that arrived while no command was running.
    func handleWaitingMessages() {
        while server.inbox.hasMessages, let message = server.inbox.next(timeout: 0) {
            received(message)
            if case .notification(let name, let params) = message { handle(name, params) }
        }
    }

    /// The next message from the server, waiting until `deadline` (monotonic milliseconds).
    func nextMessage(until deadline: Int64) -> Message? {
        guard let message = server.inbox.next(timeout: Int32(clamping: max(0, deadline - monotonicMilliseconds()))) else { return nil }
        received(message)
        return message
    }

    /// The descriptor that becomes readable when the server sends something (for `poll`).
    var serverDescriptor: Int32 { server.inbox.waker.fileDescriptor }

    /// Remembers a change this session made, in words (`delete 3 tasks`; nil: the server's words), for undo and
    /// redo to say.
    func record(_ method: String, _ words: String?) {
        history.record(Step(method: method, words: words))
    }

    /// A server error as one readable line, in words a user knows: field paths (`params.due`) become the
    /// field's name (`due`), view ids (`view v5`) "this view".
    static func describe(_ error: ResponseError) -> String {
        var text = plainWords(error.message)
        switch error.data?["reason"]?.stringValue {
        case "storeLoading": text += " (wait for it with: wait)"
        case "sortedView": text += " (sort manual first)"
        default: break
        }
        if error.data?["retryable"] == .bool(true), error.data?["reason"]?.stringValue == "storeFailed" { text += " (retry with: retry)" }
        return text
    }
}
