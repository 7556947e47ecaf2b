/// `taskls repl`: the command line, the store it runs on, and the loop that reads commands.

#if canImport(Glibc)
import Glibc
#endif
import Server

extension REPL {
    /// Runs `taskls repl ARGUMENTS`; returns the process's exit code (2 for a usage error, 1 when
    /// a command of a script failed).
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
        signal(SIGPIPE, SIG_IGN)
        let repl: REPL
        do {
            repl = try REPL(options: options, output: output, style: style, storeSetting: storeSetting)
        } catch {
            output.writeError("taskls repl: \(error.message)\n")
            return 1
        }
        style = repl.style
        if options.interactive { repl.greet(storeSetting: storeSetting, demo: options.demo) }
        var reader = LineReader(descriptor: 0)
        while !repl.finished {
            if options.interactive { repl.prompt() }
            var line: String?
            waiting: while true {
                switch reader.next(orWake: repl.serverDescriptor) {
                case .line(let text): line = text; break waiting
                case .end: break waiting
                case .wake: repl.backgroundChanged()
                }
            }
            guard let line else {
                if options.interactive { output.write("\n") }
                break
            }
            let succeeded = repl.execute(line)
            if !succeeded && !options.interactive && !options.keepGoing { break }
        }
        return repl.finish()
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

    /// The prompt: the open view's name.
    func prompt() {
        let name = view.map { renderer.viewName($0) } ?? "taskls"
        output.write(style.cyan(name) + "> ")
    }

    /// Messages arrived while the person was typing: apply them and show what changed.
    func backgroundChanged() {
        let wasLoading = view?.state.isLoading == true
        handleWaitingMessages()
        var lines: [String] = []
        if let current = view, current.state.isLoading, wasLoading {
            let tenths = Int(current.progress * 10)
            if tenths != shownProgress {
                shownProgress = tenths
                lines.append(renderer.statusLine(current))
            }
            redraw = false
            notes.removeAll()
        }
        let hasNews = !lines.isEmpty || !notes.isEmpty || redraw || !messages.isEmpty || needsSnapshot
        guard hasNews else { return }
        output.write(style.color ? "\r\u{1B}[K" : "\n")
        say(lines)
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
