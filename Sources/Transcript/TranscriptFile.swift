/// The transcript format: `-->` lines sent, `<--` lines expected, `==` directives, `#` comments.

import Wire

/// One step of a transcript, with the line it came from.
public enum TranscriptStep: Sendable, Equatable {
    /// Send a JSON-RPC message, framed; `$name` strings are replaced by captured values first.
    case send(JSON)
    /// Send bytes exactly as written, no framing added.
    case sendRaw([UInt8])
    /// Send a body of bytes, framed with a correct `Content-Length`.
    case sendFramed([UInt8])
    /// The next message from the server must match this pattern.
    case expect(JSON)
    /// Close the server's stdin.
    case closeInput
    /// The server must exit, with this code.
    case expectExit(Int32)
    /// What the server wrote to stderr must contain this text (checked once it has exited).
    case expectStandardError(String)
}

/// A parsed transcript file.
public struct TranscriptFile: Sendable {
    /// The steps with their 1-based line numbers and the server each is for: `""` for the first one,
    /// or a name given as `--> @name`, `<-- @name`, `== eof @name`, `== exit N @name` (another `taskls`
    /// started on the same store, with the same arguments, when first named).
    public var steps: [(line: Int, session: String, step: TranscriptStep)]
    /// Extra command-line arguments for the server (`== args ...`).
    public var serverArguments: [String] = []
    /// How long to wait for each expected message, in milliseconds (`== timeout ...`).
    public var timeout: Int32 = 10_000

    /// Whether the transcript can be replayed only against a server that is a process of its own: it expects an
    /// exit code (`== exit`), which is the process's. Every other step (framing, raw bytes, end of input, several
    /// servers on one store, what the server logs) is the same against a server on a thread of the replaying
    /// process. A directive that sets something only a process has (its environment, a preloaded library) must
    /// make this true too.
    public var needsProcess: Bool {
        steps.contains { if case .expectExit = $0.step { true } else { false } }
    }

    /// Parses transcript text; errors name the line.
    public init(text: String) throws(TranscriptError) {
        steps = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            let content = rawLine.drop { $0 == " " || $0 == "\t" }
            if content.isEmpty || content.hasPrefix("#") { continue }
            if content.hasPrefix("-->") {
                let (session, rest) = sessionPrefix(content.dropFirst(3))
                steps.append((line, session, try parseSend(rest, line: line)))
            } else if content.hasPrefix("<--") {
                let (session, rest) = sessionPrefix(content.dropFirst(3))
                steps.append((line, session, .expect(try parseJSON(rest, line: line))))
            } else if content.hasPrefix("==") {
                try parseDirective(String(content.dropFirst(2)), line: line)
            } else {
                throw TranscriptError(line: line, "expected '-->', '<--', '==' or '#' at the start of the line")
            }
        }
    }

    private func parseSend(_ text: String, line: Int) throws(TranscriptError) -> TranscriptStep {
        let trimmed = text.drop { $0 == " " }
        if trimmed.hasPrefix("raw ") {
            return .sendRaw(try parseByteParts(String(trimmed.dropFirst(4)), line: line))
        }
        if trimmed.hasPrefix("frame ") {
            return .sendFramed(try parseByteParts(String(trimmed.dropFirst(6)), line: line))
        }
        return .send(try parseJSON(String(trimmed), line: line))
    }

    /// Splits `@name rest` into the session's name and the rest; no `@`: the first session.
    private func sessionPrefix(_ text: Substring) -> (String, String) {
        let trimmed = text.drop { $0 == " " }
        guard trimmed.hasPrefix("@") else { return ("", String(trimmed)) }
        let name = trimmed.dropFirst().prefix { $0 != " " }
        return (String(name), String(trimmed.dropFirst(1 + name.count)))
    }

    private mutating func parseDirective(_ text: String, line: Int) throws(TranscriptError) {
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var session = ""
        if let last = words.last, last.hasPrefix("@"), ["eof", "exit"].contains(words.first) {
            session = String(last.dropFirst())
            words.removeLast()
        }
        guard let name = words.first else { throw TranscriptError(line: line, "empty directive") }
        let rest = words.dropFirst()
        switch name {
        case "eof":
            steps.append((line, session, .closeInput))
        case "exit":
            guard rest.count == 1, let code = Int32(rest[rest.startIndex]) else {
                throw TranscriptError(line: line, "== exit needs one exit code")
            }
            steps.append((line, session, .expectExit(code)))
        case "stderr":
            let argument = text.drop { $0 == " " }.dropFirst("stderr".count).drop { $0 == " " }
            guard case .string(let needle) = try parseJSON(String(argument), line: line) else {
                throw TranscriptError(line: line, "== stderr needs a JSON string")
            }
            steps.append((line, "", .expectStandardError(needle)))
        case "args":
            guard steps.isEmpty else { throw TranscriptError(line: line, "== args must come before the first step") }
            serverArguments += rest
        case "timeout":
            guard rest.count == 1, let milliseconds = Int32(rest[rest.startIndex]), milliseconds > 0 else {
                throw TranscriptError(line: line, "== timeout needs a number of milliseconds")
            }
            timeout = milliseconds
        default:
            throw TranscriptError(line: line, "unknown directive '== \(name)'")
        }
    }
}

/// A transcript that cannot be read.
public struct TranscriptError: Error, CustomStringConvertible, Sendable {
    /// The 1-based line the problem is on.
    public var line: Int
    /// What is wrong with it.
    public var message: String
    init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }
    public var description: String { "line \(line): \(message)" }
}

private func parseJSON(_ text: String, line: Int) throws(TranscriptError) -> JSON {
    do {
        return try JSONParser.parse(text)
    } catch {
        throw TranscriptError(line: line, "invalid JSON: \(error)")
    }
}

/// Parses `"text" 3*"more"` parts: JSON strings whose characters are all at most U+00FF, each
/// character one byte, optionally repeated.
private func parseByteParts(_ text: String, line: Int) throws(TranscriptError) -> [UInt8] {
    var bytes: [UInt8] = []
    var rest = Substring(text)
    while true {
        rest = rest.drop { $0 == " " }
        if rest.isEmpty { break }
        var repeatCount = 1
        if let star = rest.firstIndex(of: "*"), let quote = rest.firstIndex(of: "\""), star < quote {
            guard let count = Int(rest[..<star]), count >= 0 else {
                throw TranscriptError(line: line, "expected a repeat count before '*'")
            }
            repeatCount = count
            rest = rest[rest.index(after: star)...]
        }
        guard rest.first == "\"" else { throw TranscriptError(line: line, "expected a JSON string of bytes") }
        var end = rest.index(after: rest.startIndex)
        var escaped = false
        while end < rest.endIndex {
            let character = rest[end]
            if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { break }
            end = rest.index(after: end)
        }
        guard end < rest.endIndex else { throw TranscriptError(line: line, "unterminated string") }
        let literal = rest[...end]
        rest = rest[rest.index(after: end)...]
        guard case .string(let decoded) = try parseJSON(String(literal), line: line) else {
            throw TranscriptError(line: line, "expected a JSON string of bytes")
        }
        var part: [UInt8] = []
        for scalar in decoded.unicodeScalars {
            guard scalar.value <= 0xFF else {
                throw TranscriptError(line: line, "raw bytes must be written as characters up to \\u00ff")
            }
            part.append(UInt8(scalar.value))
        }
        for _ in 0..<repeatCount { bytes.append(contentsOf: part) }
    }
    return bytes
}
