/// The REPL at a terminal: keys from raw mode through the line editor, the server's messages and signals polled
/// together with them, and a command run (out of raw mode) for each line submitted.

#if canImport(Glibc)
import Glibc
#endif
import TasklsProtocol

/// The loop of an interactive session on a terminal.
///
/// One `poll` waits for three descriptors: the terminal, the server's waker and the `SignalPipe`. Keys go to the
/// `LineEditor`; each change redraws the prompt row (`LineRenderer`). A submitted line is added to the history
/// file and run with the terminal out of raw mode, so a command prints (or crashes) as in a normal terminal.
/// A change pushed meanwhile clears the prompt row, prints, and draws the prompt and the half-typed line again
/// with the cursor where it was. SIGWINCH takes the new width (drawn at the next redraw); SIGINT acts as
/// Ctrl-C; SIGTERM and SIGHUP end the session.
final class TerminalLoop {
    private let repl: REPL
    private let terminal: RawMode
    private let signals: SignalPipe?
    private let environment: (String) -> String?
    private let history: HistoryFile
    private var editor = LineEditor()
    private var decoder = KeyDecoder()
    private var tags = SeenTags()
    /// The terminal's width in columns.
    private var width = terminalColumns()
    /// The store's last loading percentage shown.
    private var shownPercent = -1
    /// Set when the session is over; the signal that ended it, if one did.
    private var finished = false
    private var signalled: Int32?

    /// How long an ESC waits for the rest of its sequence, in milliseconds.
    static let escapeWait: Int32 = 50
    /// How often the store's progress is asked for while it loads, in milliseconds.
    static let loadingPoll: Int32 = 250

    init(repl: REPL, terminal: RawMode, signals: SignalPipe?, environment: @escaping (String) -> String?) {
        self.repl = repl
        self.terminal = terminal
        self.signals = signals
        self.environment = environment
        let output = repl.output
        history = HistoryFile(path: HistoryFile.location(environment: environment)) { output.writeError($0 + "\n") }
        editor = LineEditor(history: history.history.entries) { [unowned self] line, cursor in
            self.repl.completion(line: line, cursor: cursor, tags: self.tags.tags)
        }
        tags.collect(from: repl.view)
    }

    /// Runs until Ctrl-D on an empty line, `quit`, Ctrl-C twice, the end of input, SIGTERM or SIGHUP; returns the
    /// signal that ended it, if one did. The terminal is out of raw mode when it returns.
    func run() -> Int32? {
        RawMode.installCrashHandlers()
        terminal.enter()
        defer { terminal.leave() }
        draw()
        while !finished {
            var descriptors = [pollfd(fd: terminal.descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: repl.serverDescriptor, events: Int16(POLLIN), revents: 0)]
            if let signals { descriptors.append(pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0)) }
            let timeout = !decoder.pending.isEmpty ? Self.escapeWait : storeLoading ? Self.loadingPoll : -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                if !decoder.pending.isEmpty { press(decoder.flush()) } else { showStoreProgress() }
                continue
            }
            if descriptors.count > 2 && descriptors[2].revents != 0 { takeSignals() }
            if !finished && descriptors[1].revents != 0 { background() }
            if !finished && descriptors[0].revents != 0 { readKeys() }
        }
        return signalled
    }

    // MARK: Events

    /// Reads what the terminal sent and applies its keys; the end of input ends the session.
    private func readKeys() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(terminal.descriptor, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else {
            write("\n")
            finished = true
            return
        }
        press(decoder.decode(chunk[..<count]))
    }

    /// Applies keys to the editor and acts on what each asks for.
    private func press(_ keys: [Key]) {
        for key in keys where !finished {
            switch editor.handle(key) {
            case .edited: draw()
            case .submit(let line): submit(line)
            case .end:
                write("\n")
                finished = true
            case .quit:
                write("^C\n")
                finished = true
            case .clearScreen:
                write("\u{1B}[H\u{1B}[2J")
                draw()
            case .interrupted:
                write("^C\n" + repl.style.dim("(Ctrl-C again or Ctrl-D to quit)") + "\n")
                draw()
            case .list(let candidates):
                write("\n" + columns(candidates))
                draw()
            }
        }
    }

    /// Runs a submitted line with the terminal out of raw mode, then starts a new line.
    private func submit(_ line: String) {
        draw(cursorAtEnd: true)
        write("\n")
        history.add(line)
        terminal.leave()
        repl.execute(line)
        tags.collect(from: repl.view)
        terminal.enter()
        if repl.finished {
            finished = true
            return
        }
        editor.begin(history: history.history.entries)
        draw()
    }

    /// The server sent something: clear the prompt row, print what changed, draw the prompt and line again.
    private func background() {
        let news = repl.takeBackground()
        tags.collect(from: repl.view)
        guard news.progress != nil || news.changes || news.storeReady else { return }
        write("\r\u{1B}[K")
        if let progress = news.progress { repl.sayProgress(progress) }
        if news.storeReady {
            // The overview replaces the store's progress line.
            repl.replaceProgressLine()
            try? repl.showOverview()
        }
        if news.changes {
            repl.shown = false
            repl.settle()
        }
        draw()
    }

    /// While the store loads (no view open yet): its progress, in place on the line above the prompt.
    private func showStoreProgress() {
        guard let status = try? repl.send(StoreStatus()), case .loading(let progress) = status.state else { return }
        let percent = Int((progress * 100).rounded(.down))
        guard percent != shownPercent else { return }
        shownPercent = percent
        write("\r\u{1B}[K")
        repl.sayProgress(repl.style.yellow("The store is loading" + repl.style.ellipsis + " \(percent)%"))
        draw()
    }

    /// Acts on the signals that arrived.
    private func takeSignals() {
        for signal in signals?.take() ?? [] where !finished {
            switch signal {
            case SIGWINCH:
                width = terminalColumns()
                repl.style.width = Style.terminalWidth(environment: environment)
            case SIGINT:
                press([.control("c")])
            default:
                write("\n")
                signalled = signal
                finished = true
            }
        }
    }

    // MARK: Drawing

    /// Redraws the prompt row: the prompt (or the reverse search's) and the line, the cursor in place.
    private func draw(cursorAtEnd: Bool = false) {
        let prompt: (styled: String, plain: String)
        if let search = editor.search {
            let text = displayed(search.prompt)
            prompt = (text, text)
        } else {
            prompt = repl.promptText
        }
        let cursor = cursorAtEnd ? editor.buffer.count : editor.cursor
        write(LineRenderer.draw(prompt: prompt.styled, promptWidth: DisplayWidth.of(prompt.plain), line: editor.buffer, cursor: cursor, width: width))
    }

    /// Completion candidates in columns across the terminal.
    private func columns(_ candidates: [String]) -> String {
        let shown = candidates.map { displayed($0) }
        let cell = (shown.map { DisplayWidth.of($0) }.max() ?? 0) + 2
        let perRow = max(1, (width - 1) / cell)
        var text = ""
        for (index, candidate) in shown.enumerated() {
            let last = index % perRow == perRow - 1 || index == shown.count - 1
            text += last ? candidate + "\n" : DisplayWidth.padded(candidate, toWidth: cell)
        }
        return text
    }

    /// Whether the overview says the store is loading.
    private var storeLoading: Bool {
        if case .loading? = repl.overviewStore?.state { return true }
        return false
    }

    private func write(_ text: String) { repl.output.write(text) }
}
