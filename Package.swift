// swift-tools-version:6.0
// taskls: a task-list server for editors, spoken over LSP-framed JSON-RPC on stdio.
// No package dependencies: Foundation, Dispatch, Glibc and the test libraries only.
import PackageDescription

let package = Package(
    name: "taskls",
    products: [
        .executable(name: "taskls", targets: ["taskls"]),
        .executable(name: "taskls-bench", targets: ["taskls-bench"]),
    ],
    targets: [
        // Framing, JSON, messages, connections. Knows nothing of tasks.
        .target(name: "Wire"),
        // Lists, items, views and changesets as pure values. No I/O.
        .target(name: "Domain"),
        // The protocol's messages and values as types: params, results, notifications, their schemas.
        .target(name: "TasklsProtocol", dependencies: ["Wire"]),
        // The message loop, lifecycle, method registry and handlers: binds wire and domain.
        // The store on disk: snapshot, journal, locking, recovery. Knows the domain, not the wire.
        .target(name: "Store", dependencies: ["Domain"]),
        .target(name: "Server", dependencies: ["Wire", "TasklsProtocol", "Domain", "Store"]),
        // Transcript files: parsing, structural matching, replay against a child process.
        .target(name: "Transcript", dependencies: ["Wire"]),
        // `taskls repl`: a terminal client of the protocol (Domain and Store only for its demo store and clock).
        .target(name: "REPL", dependencies: ["Wire", "TasklsProtocol", "Server", "Domain", "Store"]),
        .executableTarget(name: "taskls", dependencies: ["Wire", "TasklsProtocol", "Domain", "Store", "Server", "Transcript", "REPL"]),
        .executableTarget(name: "taskls-bench", dependencies: ["taskls", "Wire", "TasklsProtocol", "Domain", "Store", "Server", "Transcript"]),
        .testTarget(name: "WireTests", dependencies: ["Wire"]),
        .testTarget(name: "ProtocolTests", dependencies: ["TasklsProtocol", "Wire"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Domain"]),
        .testTarget(name: "ServerTests", dependencies: ["Server", "Wire", "TasklsProtocol", "Domain"]),
        .testTarget(name: "REPLTests", dependencies: ["taskls", "REPL", "Server", "Wire", "TasklsProtocol", "Transcript"], exclude: ["Golden"]),
        .testTarget(name: "EndToEndTests", dependencies: ["taskls", "Wire", "TasklsProtocol", "Transcript"]),
    ],
    swiftLanguageModes: [.v6]
)
