/// `taskls repl`: the command line, the store it runs on, and the loop that reads commands — the line editor at a
/// terminal, the line reader for a script.

#if canImport(Glibc)
import Glibc
#endif
import Server

extension REPL {
    /// Runs `taskls repl ARGUMENTS`; returns the process's exit code (2 for a usage error, 1 when
    /// a command of a script failed, 128 + the signal's number after SIGINT, SIGTERM or SIGHUP ended it).
    ///
    /// With standard input and output both a terminal, lines are read with the line editor (`TerminalLoop`);
    /// otherwise with `LineReader`, a line at a time as they come. SIGINT, SIGTERM and SIGHUP arrive through a
    /// `SignalPipe`, so every way out runs the same ending: the terminal restored, the server stopped, a `--demo`
    /// store removed.
    public static func main(arguments: [String]) -> Int32 {
        let output = StandardOutput()
        var options: REPLOptions
        do {
            options = try REPLOptions(arguments: arguments)
        } catch {
            output.writeError("taskls repl: \(error.message)\nRun 'taskls --help' for usage.\n")
            return 2
        }
        options.interactive = isatty(0) == 1
        let environment = StoreLocation.processEnvironment
        let editing = options.interactive && isatty(1) == 1 && environment("TERM") != "dumb"
        let signals = SignalPipe(catching: [SIGINT, SIGTERM, SIGHUP] + (editing ? [SIGWINCH] : []))
        var style = Style.forStandardOutput(environment: environment)
        if options.page == nil && options.interactive { options.page = max(5, terminalHeight() - 8) }
        var demoDirectory: String?
        let storeSetting: StoreLocation
        if options.demo {
            do {
                let directory = try DemoStore.create(timeZone: options.timeZone ?? REPLCalendar.localTimeZoneName(environment: environment),
                                                     now: options.clock.flatMap(parseInstant))
                demoDirectory = directory
                storeSetting = .directory(directory)
            } catch {
                output.writeError("taskls repl: cannot make the demo store: \(error.message)\n")
                return 1
            }
        } else {
            storeSetting = StoreLocation.resolve(flag: options.store)
        }
        defer { if let demoDirectory { DemoStore.remove(demoDirectory) } }
        if let ending = signals?.take().first(where: { $0 != SIGWINCH }) { return 128 + ending }
        signal(SIGPIPE, SIG_IGN)
        let repl: REPL
        do {
            repl = try REPL(options: options, output: editing ? LineCountingOutput(output) : output, style: style, storeSetting: storeSetting)
        } catch {
            output.writeError("taskls repl: \(error.message)\n")
            return 1
        }
        style = repl.style
        if options.interactive { repl.greet(storeSetting: storeSetting, demo: options.demo) }
        let signalled: Int32?
        if editing, let terminal = RawMode(descriptor: 0) {
            signalled = TerminalLoop(repl: repl, terminal: terminal, signals: signals, environment: environment).run()
        } else {
            signalled = readLines(into: repl, signals: signals)
        }
        let code = repl.finish()
        return signalled.map { 128 + $0 } ?? code
    }

    /// Runs the lines of standard input until its end, `quit`, a failed command of a script (without
    /// `--keep-going`) or a signal; returns the signal that ended it, if one did.
    private static func readLines(into repl: REPL, signals: SignalPipe?) -> Int32? {
        var reader = LineReader(descriptor: 0)
        let others = [repl.serverDescriptor] + (signals.map { [$0.descriptor] } ?? [])
        while !repl.finished {
            if repl.options.interactive { repl.prompt() }
            var line: String?
            waiting: while true {
                if let signal = signals?.take().first { return signal }
                switch reader.next(orWake: others) {
                case .line(let text): line = text; break waiting
                case .end: break waiting
                case .wake(let descriptor):
                    if descriptor == repl.serverDescriptor { repl.backgroundChanged() }
                }
            }
            guard let line else {
                if repl.options.interactive { repl.output.write("\n") }
                break
            }
            let succeeded = repl.execute(line)
            if !succeeded && !repl.options.interactive && !repl.options.keepGoing { break }
        }
        return nil
    }

    /// The first lines a person sees: where the store is and how to get help; then the overview.
    func greet(storeSetting: StoreLocation, demo: Bool) {
        let store: String
        switch storeSetting {
        case .memory: store = "in memory"
        case .directory(let path): store = demo ? "a throwaway demo store" : path
        case .clientChoice(let fallback): store = fallback
        }
        say(style.bold("taskls repl") + " " + style.dash + " store: " + store + " " + style.dash + " type " + style.bold("help") + " for commands, " + style.bold("quit") + " to leave")
        execute("ls")
    }

    /// The prompt, styled and plain (the open view's name, then `> `).
    var promptText: (styled: String, plain: String) {
        let name = view.map { renderer.viewName($0) } ?? "taskls"
        return (style.cyan(name) + "> ", name + "> ")
    }

    /// Prints the prompt (for the line reader; the line editor draws its own).
    func prompt() {
        output.write(promptText.styled)
    }

    /// What came from the server while the person was typing.
    struct BackgroundNews {
        /// The open view's new loading progress line, if its progress moved on by a tenth.
        var progress: String?
        /// Whether there is more to print (`settle` prints it).
        var changes: Bool
        /// Whether the store, loading until now, became ready (the overview has its lists).
        var storeReady: Bool
    }

    /// Applies the messages that arrived meanwhile; says what there is to show (printing nothing yet).
    func takeBackground() -> BackgroundNews {
        let wasLoading = view?.state.isLoading == true
        let storeWasLoading = overviewStore != nil
        handleWaitingMessages()
        var progress: String?
        if let current = view, current.state.isLoading, wasLoading {
            let tenths = Int(current.progress * 10)
            if tenths != shownProgress {
                shownProgress = tenths
                progress = renderer.statusLine(current)
            }
            redraw = false
            notes.removeAll()
        }
        let changes = !notes.isEmpty || redraw || !messages.isEmpty || needsSnapshot
        return BackgroundNews(progress: progress, changes: changes, storeReady: storeWasLoading && overviewStore == nil)
    }

    /// Messages arrived while the person was typing at a line-reader prompt: apply them, show what changed,
    /// and prompt again.
    func backgroundChanged() {
        let news = takeBackground()
        guard news.progress != nil || news.changes else { return }
        output.write(style.color ? "\r\u{1B}[K" : "\n")
        say(news.progress.map { [$0] } ?? [])
        shown = false
        settle()
        prompt()
    }
}

/// The terminal's height in rows (24 when unknown).
func terminalHeight() -> Int {
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_row > 0 { return Int(size.ws_row) }
    return 24
}

/// The terminal's width in columns (80 when unknown).
func terminalColumns() -> Int {
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return Int(size.ws_col) }
    return 80
}
