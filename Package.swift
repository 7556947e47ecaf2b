// swift-tools-version:6.0
// taskls: a task-list server for editors, spoken over LSP-framed JSON-RPC on stdio.
// No package dependencies: Foundation, Dispatch, Glibc and the test libraries only.
import PackageDescription

let package = Package(
    name: "taskls",
    products: [
        .executable(name: "taskls", targets: ["taskls"]),
        .executable(name: "taskls-bench", targets: ["taskls-bench"]),
        .executable(name: "taskls-sync", targets: ["taskls-sync"]),
    ],
    targets: [
        // Framing, JSON, messages, connections. Knows nothing of tasks.
        .target(name: "Wire"),
        // Lists, items, views and changesets as pure values. No I/O.
        .target(name: "Domain"),
        // The protocol's messages and values as types: params, results, notifications, their schemas.
        .target(name: "TasklsProtocol", dependencies: ["Wire"]),
        // The quick-entry grammars (an item's fields, a filter) from what a person types. Pure: the clock, the
        // time zone's rules and the lists are passed in.
        .target(name: "QuickEntry", dependencies: ["Domain"]),
        // The message loop, lifecycle, method registry and handlers: binds wire and domain.
        // The store on disk: snapshot, journal, locking, recovery. Knows the domain, not the wire.
        .target(name: "Store", dependencies: ["Domain"]),
        // Other tools' files (Taskwarrior JSON, todo.txt, iCalendar, the backup JSON) read into and written from the
        // domain's exchange model. Pure: text in, text out, time zones passed in.
        .target(name: "Interchange", dependencies: ["Domain", "Wire"]),
        // Sync's rules: the merge, the plan of a sync, the WebDAV XML read and written. Pure: no Foundation, no I/O.
        .target(name: "Sync", dependencies: ["Domain"]),
        // The requests of sync over HTTP(S) (URLSession: libcurl and OpenSSL at run time). Only taskls-sync links it.
        .target(name: "CalDAV", dependencies: ["Sync", "Domain"]),
        // Sync as it runs: one list with its calendar through the client, the store's side planned and applied under its
        // lock, the accounts, status and state kept beside the store.
        .target(name: "SyncEngine", dependencies: ["CalDAV", "Sync", "Interchange", "Domain", "Store", "TasklsProtocol", "Wire"]),
        .target(name: "Server", dependencies: ["Wire", "TasklsProtocol", "Domain", "Store", "QuickEntry", "Interchange"]),
        // What the tests and the benchmarks share: a seeded generator, temporary directories, whole files, built paths.
        .target(name: "TestSupport", dependencies: ["Wire"]),
        // Transcript files: parsing, structural matching, replay against a child process or any other server.
        .target(name: "Transcript", dependencies: ["Wire", "TestSupport"]),
        // `taskls repl`: a terminal client of the protocol (Domain and Store only for its demo store and clock).
        .target(name: "REPL", dependencies: ["Wire", "TasklsProtocol", "Server", "Domain", "Store"]),
        // Release builds on Linux link the Swift runtime and Foundation statically, so a start loads and relocates no
        // Swift shared library (`taskls --version` 7–9 → about 3 ms here; the binary grows from 24 to 95 MB, its link
        // from 1.0 to 2.2 s). The group names the libraries Foundation's archives need, which `-static-stdlib` alone
        // leaves out. Debug builds, and so `swift test`, link as before.
        .executableTarget(name: "taskls", dependencies: ["Wire", "TasklsProtocol", "Domain", "Store", "Server", "Transcript", "REPL"],
                          linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "--start-group", "-lFoundation", "-lCoreFoundation",
                                                         "-lFoundationEssentials", "-lFoundationInternationalization", "-l_FoundationICU",
                                                         "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization",
                                                         "-Xlinker", "--end-group"],
                                                        .when(platforms: [.linux], configuration: .release))]),
        // Sync, as its own program: `taskls sync …` and the server's sync/now run it, so neither the server nor any
        // other command loads libcurl and OpenSSL. Not a dependency of taskls: an executable's dependencies are linked.
        .executableTarget(name: "taskls-sync", dependencies: ["SyncEngine", "CalDAV", "Interchange", "Domain", "Store", "Server", "TasklsProtocol", "Wire"]),
        .executableTarget(name: "taskls-bench", dependencies: ["taskls", "Wire", "TasklsProtocol", "Domain", "Store", "Server", "Transcript", "TestSupport"]),
        .testTarget(name: "WireTests", dependencies: ["Wire", "TestSupport"]),
        .testTarget(name: "ProtocolTests", dependencies: ["TasklsProtocol", "Wire", "TestSupport"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport"]),
        .testTarget(name: "QuickEntryTests", dependencies: ["QuickEntry", "Domain", "TestSupport"]),
        .testTarget(name: "InterchangeTests", dependencies: ["Interchange", "Domain", "Wire", "TestSupport"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "CalDAV", "SyncEngine", "Interchange", "Domain", "Store", "Wire", "TasklsProtocol", "Transcript", "TestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Domain", "TestSupport"]),
        .testTarget(name: "ServerTests", dependencies: ["Server", "Wire", "TasklsProtocol", "Domain", "TestSupport"]),
        .testTarget(name: "REPLTests", dependencies: ["taskls", "REPL", "Server", "Wire", "TasklsProtocol", "Transcript", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "EndToEndTests", dependencies: ["taskls", "Server", "Domain", "Store", "Wire", "TasklsProtocol", "Transcript", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
