// The taskls binary run as a person runs it, for the sync tests: on a store, in UTC, with input and environment.

import Foundation
import TestSupport
import Wire

/// Runs `taskls ARGUMENTS` with `TASKLS_STORE` set to `store` (and `environment` added), `input` on its stdin;
/// returns its exit status (the signal's number, negated, when a signal killed it), stdout and stderr.
func taskls(_ store: String, _ arguments: [String], input: String? = nil,
            environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuildPaths.taskls)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["TASKLS_STORE": store, "TZ": "UTC"]) { $1 }) { $1 }
    let output = Pipe()
    let errors = Pipe()
    let feed = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = input == nil ? FileHandle.nullDevice : feed
    try process.run()
    if let input {
        feed.fileHandleForWriting.write(Data(input.utf8))
        try feed.fileHandleForWriting.close()
    }
    // Both read to the end (a thread for stderr), so neither pipe fills while the other is read.
    let complaint = Locked(Data())
    let read = DispatchSemaphore(value: 0)
    let reader = Thread {
        complaint.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
        read.signal()
    }
    reader.start()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    read.wait()
    let complained = complaint.withLock { $0 }
    let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
    return (status, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
}

/// A Radicale with the user `ann` (password `pw`) and two stores of hers, a laptop's and a desktop's, in a scratch
/// directory: what most tests of `taskls sync` start from.
struct TwoMachines {
    let server: RadicaleServer
    let scratch: String
    let laptop: String
    let desktop: String
    /// A file holding ann's password.
    let passwordFile: String

    init(prefix: String) throws {
        server = try RadicaleServer(users: ["ann": "pw"])
        scratch = makeTemporaryDirectory(prefix: prefix)
        laptop = scratch + "/laptop"
        desktop = scratch + "/desktop"
        passwordFile = scratch + "/password"
        try "pw\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
    }

    /// Adds ann's account to `store` and shares every list and calendar (`taskls sync add`, `share --all`); whether
    /// both succeeded.
    func shareEverything(_ store: String) throws -> Bool {
        try taskls(store, ["sync", "add", server.base + "/", "--user", "ann", "--password-file", passwordFile]).status == 0
            && taskls(store, ["sync", "share", "--all"]).status == 0
    }

    /// Stops the server and removes the scratch directory.
    func stop() {
        server.stop()
        removeTree(scratch)
    }
}
