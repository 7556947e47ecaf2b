/// `taskls-sync`: two-way sync of a store's lists with CalDAV calendars. Run as `taskls sync …` (which runs this
/// program from beside itself), so the server never loads the HTTP and TLS libraries sync needs (as git keeps
/// libcurl in `git-remote-https`).

#if canImport(Glibc)
import Glibc
#endif
import CalDAV
import Domain
import Foundation
import Server
import SyncEngine

let usage = """
    usage: taskls sync add URL --user NAME (--password-command CMD | --password-file FILE) [--name NAME]
           taskls sync share LIST [--account NAME] [--calendar NAME]
           taskls sync share --all [--account NAME]
           taskls sync unshare LIST
           taskls sync now [LIST...] [--confirm]
           taskls sync status
           taskls sync remove NAME
    every command takes --store DIR (else $TASKLS_STORE, else $XDG_DATA_HOME/taskls or ~/.local/share/taskls)

    Two-way sync of lists with CalDAV calendars (Radicale, Nextcloud, Fastmail, Baïkal, SOGo; not iCloud's
    Reminders, which CalDAV has not reached since iOS 13).

      add URL               an account: finds its calendars (current-user-principal, calendar-home-set) and lists
                            them. The password is never stored: --password-command runs CMD with /bin/sh at each sync
                            and takes the first line it prints (`pass show dav`); --password-file reads a file's first
                            line. --name names the account (default: the URL's host)
      share LIST            syncs LIST with a calendar: --calendar NAME adopts the account's calendar of that name
                            (or href), else a new task calendar named as the list is made. A LIST that does not exist
                            is created (to adopt a calendar as a new list). --all shares every list and every task
                            calendar of the account, now and at each later sync (new ones on either side included)
      unshare LIST          stops syncing LIST (the list and the calendar both stay)
      now [LIST...]         syncs every shared list (or those named): changes both ways, merged field by field;
                            --confirm mirrors a side that looks suddenly empty (refused without it); exits 1
                            unless every list synced. --json prints sync/now's result instead (for the server),
                            --list-id N,M names lists by number
      status                accounts, shared lists, each list's state (synced, offline with the changes waiting,
                            error, or waiting for --confirm) and what its last sync reported (clashes)
      remove NAME           forgets an account and its lists' sync status (nothing is deleted anywhere)

    """

struct Failure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
func complain(_ text: String) { FileHandle.standardError.write(Data(("taskls sync: " + text + "\n").utf8)) }

/// The command line, options taken out.
struct CommandLineArguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    static let valued: Set<String> = ["--store", "--user", "--password-command", "--password-file", "--name", "--account", "--calendar",
                                      "--list-id"]
    static let flagged: Set<String> = ["--all", "--confirm", "--json"]

    init(_ arguments: ArraySlice<String>) throws(Failure) {
        var rest = arguments
        while let argument = rest.popFirst() {
            if Self.valued.contains(argument) {
                guard let value = rest.popFirst() else { throw Failure("\(argument) needs a value") }
                options[argument] = value
            } else if Self.flagged.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--") {
                throw Failure("unknown option '\(argument)'")
            } else {
                positional.append(argument)
            }
        }
    }

    var storePath: String {
        switch StoreLocation.resolve(flag: options["--store"]) {
        case .directory(let path), .clientChoice(fallback: let path): path
        case .memory: "."
        }
    }
}

func runCommand(_ arguments: ArraySlice<String>) async throws(Failure) -> Int32 {
    guard let command = arguments.first else { throw Failure("a command is wanted: add, share, unshare, now, status or remove") }
    let line = try CommandLineArguments(arguments.dropFirst())
    let commands = SyncCommands(runner: SyncRunner(storePath: line.storePath, text: machineTaskText(), now: wallClock), line: line)
    switch command {
    case "add": try await commands.add()
    case "share": try await commands.share()
    case "unshare": try commands.unshare()
    case "now": return try await commands.now()
    case "status": try await commands.status()
    case "remove": try commands.remove()
    case "-h", "--help", "help": say(usage)
    default: throw Failure("unknown command '\(command)': add, share, unshare, now, status or remove")
    }
    return 0
}

signal(SIGPIPE, SIG_IGN)
let code: Int32
do {
    code = try await runCommand(CommandLine.arguments.dropFirst())
} catch {
    complain(error.message)
    code = 1
}
exit(code)
