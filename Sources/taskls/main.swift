/// The `taskls` executable: parses the command line and runs the chosen command.

#if canImport(Glibc)
import Glibc
#endif
import Domain
import REPL
import Server
import Store
import TasklsProtocol
import Transcript
import Wire

let usage = """
    usage: taskls [serve] [--store DIR] [--log-level LEVEL] [--max-message-bytes N] [--clock INSTANT]
           taskls replay [--server PATH] FILE...
           taskls repl [--store DIR] [--demo] [--keep-going] [--trace] [--record FILE] [--clock INSTANT]
           taskls import FILE [--format F] [--into LIST] [--dry-run] [--skip-invalid] [--store DIR]
           taskls export [--format F] [--list NAME]... [-o FILE] [--store DIR]
           taskls store check DIR
           taskls store recover DIR --to NEWDIR
           taskls sync add|share|unshare|now|status|remove …   (taskls sync --help)
           taskls schema
           taskls --help | --version

    taskls is a task-list server for editors. Run with no command (or `serve`), it speaks
    JSON-RPC framed as in the Language Server Protocol on stdin and stdout; logs go to stderr.

    commands:
      serve                 run the server on stdin/stdout (the default)
      repl                  a terminal client: open lists, add, edit, move and complete items by
                            row number (type help inside); with stdin not a terminal, runs the
                            commands it reads and exits 1 if one failed. repl options:
                            --demo (a throwaway store with sample lists and 100,000 items),
                            --keep-going (a script carries on after a failure), --trace (every
                            message on stderr), --record FILE (write a transcript for replay),
                            --time-zone NAME, --page N (rows per window)
      replay FILE...        run JSON-RPC transcripts against a fresh server; exit 1 on a mismatch
      import FILE           read another tool's file into the store (FILE - reads standard input):
                            --format taskwarrior|todotxt|ics|json (else told by the name: .ics,
                            .txt, .json), --into LIST (for tasks the file puts in no list),
                            --dry-run (print what would be created, updated and lost; change
                            nothing), --skip-invalid (leave invalid tasks out instead of
                            refusing the file). All or nothing, one undo step; a task whose uid
                            the store knows updates its item, so importing twice duplicates nothing
      export                write lists as another tool's file on stdout (or -o FILE): --format
                            as for import, --list NAME (repeatable; default every list)
      store check DIR       read a store without changing it and report what it holds; exit 1 if
                            taskls would refuse to open it (corruption)
      store recover DIR --to NEWDIR
                            salvage every valid record of a damaged store into a new store
      sync …                two-way sync of lists with CalDAV calendars (Radicale, Nextcloud,
                            Fastmail, …): `taskls sync --help` tells its commands
      schema                print the protocol's machine-readable schema (protocol.json: every
                            request, notification, type, error code and reason), to generate a
                            client's types from

    options:
      --store DIR           the store directory (else $TASKLS_STORE, else the client's
                            initializationOptions.store, else $XDG_DATA_HOME/taskls or
                            ~/.local/share/taskls); created 0700 if missing
      --compact-after BYTES write a new snapshot once the journal passes BYTES (default 8388608)
      --hold-load           read the store off the loop, and only once debug/continueLoading
                            is requested: for tests of the loading state
      --compact-on-loop     write and install each compaction on the message loop, before the
                            answers of the turn that started it leave: for tests of compaction
      --log-level LEVEL     error, warning (default), info or debug
      --sync-every SECONDS  while a list of the store is shared with a CalDAV calendar, sync it
                            every SECONDS (default 300; at start, and every minute while one is
                            offline); 0: only when a client asks (sync/now)
      --max-message-bytes N largest message body accepted (default 67108864); larger ones are
                            answered with an error and skipped
      --clock INSTANT       run on a clock stopped at INSTANT (2026-11-22T23:59:00Z) that only
                            the debug/setClock request moves: for tests of dates and midnight
      --server PATH         (replay) the taskls executable to run (default: this one)
      -h, --help            show this help
      --version             show the version

    """

func fail(_ message: String) -> Never {
    writeStandardError("taskls: \(message)\nRun 'taskls --help' for usage.\n")
    exit(2)
}

func writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

func writeStandardOutput(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

/// Takes the value after `flag` from `arguments`, or fails with a usage error.
func value(after flag: String, in arguments: inout ArraySlice<String>) -> String {
    do {
        return try nextValue(after: flag, in: &arguments)
    } catch {
        fail(error.message)
    }
}

func serve(_ arguments: ArraySlice<String>) -> Never {
    let command: ServeCommand
    do {
        command = try ServeCommand(arguments: Array(arguments))
    } catch {
        fail(error.message)
    }
    // A client that goes away must turn writes into errors, not kill the server mid-write.
    signal(SIGPIPE, SIG_IGN)
    let connection = StdioConnection(input: 0, output: 1, maximumContentLength: command.maximumContentLength)
    let server = Server(connection: connection, options: command.options)
    exit(server.run())
}

func replay(_ arguments: ArraySlice<String>) -> Never {
    var arguments = arguments
    var executable = currentExecutable()
    var files: [String] = []
    while let argument = arguments.popFirst() {
        switch argument {
        case "--server": executable = value(after: argument, in: &arguments)
        case let flag where flag.hasPrefix("-"): fail("unknown option '\(flag)'")
        default: files.append(argument)
        }
    }
    guard !files.isEmpty else { fail("replay needs at least one transcript file") }
    let replayer = Replayer(executable: executable)
    var failed = 0
    for file in files {
        let outcome = replayer.run(path: file)
        if outcome.passed {
            writeStandardOutput("ok   \(file)\n")
        } else {
            failed += 1
            writeStandardOutput("FAIL \(outcome.report)\n")
        }
    }
    writeStandardOutput("replay: \(files.count - failed) passed, \(failed) failed\n")
    exit(failed == 0 ? 0 : 1)
}

func store(_ arguments: ArraySlice<String>) -> Never {
    var arguments = arguments
    guard let command = arguments.popFirst() else { fail("store needs a command: check or recover") }
    guard let directory = arguments.popFirst(), !directory.hasPrefix("-") else { fail("store \(command) needs a store directory") }
    var destination: String?
    while let argument = arguments.popFirst() {
        switch argument {
        case "--to" where command == "recover": destination = value(after: argument, in: &arguments)
        default: fail("unknown option '\(argument)' for store \(command)")
        }
    }
    let report = StoreInspection.check(directory)
    for line in report.lines { writeStandardOutput(line + "\n") }
    switch command {
    case "check":
        exit(report.healthy ? 0 : 1)
    case "recover":
        guard let destination else { fail("store recover needs --to NEWDIR") }
        do {
            try StoreInspection.recover(report, to: destination)
        } catch {
            writeStandardError("taskls: \(error.message)\n")
            exit(1)
        }
        writeStandardOutput("recovered \(report.state.lists.count) lists and \(report.state.itemCount) items through record \(report.sequence) into \(destination)\n")
        exit(0)
    default:
        fail("unknown store command '\(command)'; expected check or recover")
    }
}

/// The path of this executable.
/// `taskls sync …`: runs `taskls-sync` from beside this executable with the same arguments (sync's HTTP and TLS
/// libraries stay out of every other command, the server above all).
func runSync(_ arguments: ArraySlice<String>) -> Never {
    let executable = currentExecutable()
    let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let program = (directory.isEmpty ? "." : directory) + "/taskls-sync"
    var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
    execv(program, &argv)
    fail("sync: cannot run \(program): \(String(cString: strerror(errno))) (build it with `swift build`)")
}

func currentExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}

var arguments = CommandLine.arguments.dropFirst()
if arguments.first == "sync" {
    // Its own help and options.
    runSync(arguments.dropFirst())
}
if arguments.contains("--help") || arguments.contains("-h") {
    writeStandardOutput(usage)
    exit(0)
}
switch arguments.first {
case "-h", "--help", "help":
    writeStandardOutput(usage)
    exit(0)
case "--version":
    writeStandardOutput("taskls \(tasklsVersion)\n")
    exit(0)
case "replay":
    replay(arguments.dropFirst())
case "repl":
    exit(REPL.main(arguments: Array(arguments.dropFirst())))
case "serve":
    serve(arguments.dropFirst())
case "store":
    store(arguments.dropFirst())
case "import", "export":
    do {
        let command = try ExchangeCommand(arguments.first == "import" ? .importing : .exporting,
                                          arguments: Array(arguments.dropFirst()))
        exit(command.run())
    } catch {
        fail(error.message)
    }
case "schema":
    guard arguments.count == 1 else { fail("schema: takes no arguments") }
    writeStandardOutput(ProtocolCatalog.protocolJSON())
    exit(0)
case let command? where !command.hasPrefix("-"):
    fail("unknown command '\(command)'")
default:
    serve(arguments)
}
