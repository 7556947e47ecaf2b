/// Runs every case of the bad-input catalog through the real `taskls` binary over stdio.

import Foundation
import Testing
import Transcript
import Wire

/// How long to wait for one reply or for the process to exit; only a failing case waits this long.
private let patience: Int32 = 10_000

@Test(arguments: malformedInputs)
func badInputIsAnsweredAndServingGoesOn(_ input: MalformedInput) throws {
    let server = try Binary.start(input.arguments)
    if input.initializesFirst {
        try initialize(server)
    }
    for write in input.writes {
        try #require(write.perform(on: server), "the server closed its input during the case's writes")
    }
    // The probe goes out before the case's replies are read: some broken input is only known
    // to be broken once the next message arrives.
    switch input.ending {
    case .stillServing, .shutDown:
        if !input.initializesFirst {
            server.send(["jsonrpc": "2.0", "id": "init", "method": "initialize", "params": [:]])
            server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        }
        server.send(["jsonrpc": "2.0", "id": "after", "method": "server/ping"])
    case .endOfInput:
        server.closeInput()
    }
    for (index, reply) in input.replies.enumerated() {
        try expect(server.receive(timeout: patience), matches: reply, "reply \(index + 1) of \(input.replies.count)")
    }
    // The server's own high-water mark, read while it runs: `wait4`'s `ru_maxrss` also counts the test
    // process's memory, which the child shared between the spawn and its exec.
    let peak = input.peakMemoryLimit == nil ? nil : residentHighWater(of: server.processID)
    switch input.ending {
    case .stillServing:
        if !input.initializesFirst {
            try expect(server.receive(timeout: patience), matches: .result("init", "$any"), "the late initialize")
        }
        try expect(server.receive(timeout: patience), matches: .result("after", [:]), "the ping after the bad input")
        server.send(["jsonrpc": "2.0", "id": "down", "method": "shutdown"])
        try expect(server.receive(timeout: patience), matches: .result("down", nil), "shutdown")
        server.send(["jsonrpc": "2.0", "method": "exit"])
        #expect(server.waitForExit(timeout: patience) == 0)
    case .shutDown:
        try expect(server.receive(timeout: patience), matches: .error(-32600, id: "after", naming: "shut down"), "the ping after shutdown")
        server.send(["jsonrpc": "2.0", "method": "exit"])
        #expect(server.waitForExit(timeout: patience) == 0)
    case .endOfInput:
        #expect(server.waitForExit(timeout: patience) == 1, "end of input without shutdown must exit promptly with 1")
    }
    let extra = server.receive(timeout: patience)
    #expect(extra == nil, "nothing more may be written, got \(extra?.text ?? "")")
    let standardError = server.standardError
    for text in input.standardError {
        #expect(standardError.contains(text), "stderr lacks \(text.debugDescription); it was:\n\(standardError)")
    }
    if let limit = input.peakMemoryLimit {
        let peak = try #require(peak, "no VmHWM in /proc/\(server.processID)/status")
        #expect(peak < limit, "peak resident memory \(peak) bytes is over \(limit)")
    }
}

/// The peak resident memory of process `id` since its exec (`VmHWM` in `/proc/ID/status`), in bytes.
private func residentHighWater(of id: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(id)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }
    return nil
}

@Test func catalogHasAtLeastFiftyUniquelyNamedCases() {
    let names = malformedInputs.map(\.name)
    #expect(names.count >= 50)
    #expect(Set(names).count == names.count, "duplicate names")
    for name in names {
        #expect(name.allSatisfy { $0.isLetter || $0.isNumber } && name.first?.isLowercase == true, "\(name) is not one lowerCamelCase word")
    }
}

/// Sends `initialize` and `initialized` and checks the answer.
private func initialize(_ server: ServerProcess) throws {
    server.send(["jsonrpc": "2.0", "id": "init", "method": "initialize", "params": ["processId": nil]])
    try expect(server.receive(timeout: patience), matches: .result("init", ["serverInfo": ["name": "taskls"]]), "initialize")
    server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
}

/// Records an issue unless `actual` matches `reply`'s pattern and, for an error, its message
/// contains every one of the reply's words.
private func expect(
    _ actual: JSON?, matches reply: MalformedInput.Reply, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let message = try #require(actual, "\(what): nothing arrived within \(patience) ms", sourceLocation: sourceLocation)
    var matcher = Matcher()
    if let mismatch = matcher.match(reply.pattern, message) {
        Issue.record("\(what): \(mismatch) in \(message.text)", sourceLocation: sourceLocation)
        return
    }
    guard !reply.messageWords.isEmpty else { return }
    guard case .string(let text)? = message["error"]?["message"] else {
        Issue.record("\(what): error.message is not a string in \(message.text)", sourceLocation: sourceLocation)
        return
    }
    for word in reply.messageWords where !text.contains(word) {
        Issue.record("\(what): error.message \(text.debugDescription) does not name \(word.debugDescription)", sourceLocation: sourceLocation)
    }
}

extension MalformedInput.Write {
    /// Writes these bytes to the server; `false` when it has closed its input.
    func perform(on server: ServerProcess) -> Bool {
        switch self {
        case .bytes(let bytes):
            return server.write(bytes)
        case .trickle(let bytes, let size):
            var offset = 0
            while offset < bytes.count {
                guard server.write(Array(bytes[offset..<min(offset + size, bytes.count)])) else { return false }
                offset += size
            }
            return true
        case .repeated(let byte, let count, let chunk):
            let block = [UInt8](repeating: byte, count: chunk)
            var remaining = count
            while remaining >= chunk {
                guard server.write(block) else { return false }
                remaining -= chunk
            }
            return remaining == 0 || server.write(Array(block[..<remaining]))
        }
    }
}
