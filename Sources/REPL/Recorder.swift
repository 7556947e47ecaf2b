/// `--record FILE`: writes the session's messages as a transcript that `taskls replay` runs.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Wire

/// Writes `-->` and `<--` lines as the session goes. Ids the server hands out are captured with
/// `$bind:ID` and echoed as `$ID`; times (`created`, `modified`, `completed`), the `initialize`
/// result and anything naming the store's path match `$any`, so the transcript replays on a
/// fresh store at another time.
final class Recorder {
    private let descriptor: Int32
    /// Ids already bound.
    private var known: Set<String> = []
    /// The id of the `initialize` request, whose answer is `$any`.
    private var initializeID: JSON?
    /// The store's path, when known, so strings naming it match anything.
    var storePath: String?

    /// Creates `path` and writes the transcript's header: a clock stopped at `clock` (so the
    /// replay's "today" is the session's), and `--hold-load` if the session used it.
    init(path: String, clock: String, holdLoad: Bool) throws(CommandError) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CommandError("--record \(path): \(String(cString: strerror(errno)))") }
        write("# Recorded by taskls repl. Replay it with: taskls replay FILE (it runs on a fresh, empty store).")
        write("== args --clock \(clock)" + (holdLoad ? " --hold-load" : ""))
    }

    deinit { close(descriptor) }

    /// An instant in the transcript's form, from milliseconds since 1970.
    static func instant(milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds / 1000)))
    }

    /// Records a message the REPL sent.
    func sent(_ message: JSON) {
        if message["method"]?.stringValue == "initialize" { initializeID = message["id"] }
        write("--> " + substituted(message).text)
    }

    /// Records a message the server sent.
    func received(_ message: JSON) {
        var pattern = pattern(of: message, key: "")
        if let initializeID, message["id"] == initializeID, message["result"] != nil, case .object(var object) = pattern {
            object["result"] = "$any"
            pattern = .object(object)
        }
        write("<-- " + pattern.text)
    }

    /// Records the end: the server must exit with `exitCode`.
    func finish(exitCode: Int32) { write("== exit \(exitCode)") }

    /// `value` with every string that is a bound id replaced by its capture.
    private func substituted(_ value: JSON) -> JSON {
        switch value {
        case .string(let text) where known.contains(text): return .string("$" + text)
        case .string(let text) where text.hasPrefix("$") && text.dropFirst().first?.isLetter == true: return .string("$" + text)
        case .array(let elements): return .array(elements.map(substituted))
        case .object(let object): return .object(JSONObject(object.members.map { ($0.key, substituted($0.value)) }))
        default: return value
        }
    }

    /// The pattern that matches `value` found under `key`.
    private func pattern(of value: JSON, key: String) -> JSON {
        switch value {
        case .string(let text):
            if ["created", "modified", "completed"].contains(key) { return "$any" }
            if let storePath, !storePath.isEmpty, text.contains(storePath) { return "$any" }
            if ["id", "list", "view", "ids", "before"].contains(key), Self.isServerID(text) {
                if known.contains(text) { return .string("$" + text) }
                known.insert(text)
                return .string("$bind:" + text)
            }
            if known.contains(text) { return .string("$" + text) }
            if text.hasPrefix("$") && text.dropFirst().first?.isLetter == true { return .string("$" + text) }
            return value
        case .array(let elements):
            return .array(elements.map { pattern(of: $0, key: key) })
        case .object(let object):
            return .object(JSONObject(object.members.map { ($0.key, pattern(of: $0.value, key: $0.key)) }))
        default:
            return value
        }
    }

    /// Whether `text` is spelled like a list, item or view id (`l3`, `i42`, `v1`).
    static func isServerID(_ text: String) -> Bool {
        guard let first = text.first, "liv".contains(first), text.count > 1 else { return false }
        let digits = text.dropFirst()
        return digits.first != "0" && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private func write(_ line: String) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
