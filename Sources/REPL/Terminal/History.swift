/// The history of command lines: the rules for what is kept in memory, and the file it is kept in across sessions
/// (`$XDG_STATE_HOME/taskls/history`, else `~/.local/state/taskls/history`).

#if canImport(Glibc)
import Glibc
#endif

/// The lines typed, oldest first, at most `limit` of them.
struct History: Equatable, Sendable {
    /// The lines, oldest first.
    private(set) var entries: [String]
    /// How many lines are kept.
    let limit: Int

    /// A history of `entries` (only the last `limit` are kept).
    init(entries: [String] = [], limit: Int = 1000) {
        self.limit = max(1, limit)
        self.entries = Array(entries.suffix(self.limit))
    }

    /// Whether `line` would be kept: not blank, not starting with a space (a way to keep a line out), and not
    /// the same as the line before.
    func accepts(_ line: String) -> Bool {
        !line.allSatisfy(\.isWhitespace) && !line.hasPrefix(" ") && entries.last != line && !line.contains("\n")
    }

    /// Adds `line` when it `accepts` it (dropping the oldest beyond the limit); returns whether it did.
    @discardableResult
    mutating func add(_ line: String) -> Bool {
        guard accepts(line) else { return false }
        entries.append(line)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        return true
    }
}

/// The history file: read at the start, appended to a line at a time, cut back to its last `limit` lines when
/// it grows a quarter beyond them (from what the file holds then, so that several sessions at once all keep
/// their lines). It is made with mode 0600 (in directories made 0700). A file that
/// cannot be read or written costs one warning (through `warn`) and nothing else: the session goes on with
/// its history in memory.
final class HistoryFile {
    /// The file's path (nil: no place for it, history in memory only).
    let path: String?
    /// What was read, and the lines added since.
    private(set) var history: History
    /// Lines in the file now (to know when to rewrite it).
    private var lines = 0
    /// Whether writing failed already (warned once, then quiet).
    private var broken = false
    private let warn: (String) -> Void

    /// The history file's path for an environment: `$XDG_STATE_HOME/taskls/history` when that is an absolute
    /// path, else `$HOME/.local/state/taskls/history`; nil when neither is set.
    static func location(environment: (String) -> String?) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/taskls/history" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.local/state/taskls/history" }
        return nil
    }

    /// Reads the history at `path` (a missing file is an empty history), keeping the last `limit` lines.
    init(path: String?, limit: Int = 1000, warn: @escaping (String) -> Void) {
        self.path = path
        self.warn = warn
        var entries: [String] = []
        if let path, let text = Self.read(path) {
            entries = text.split(separator: "\n").map(String.init)
            lines = entries.count
        }
        history = History(entries: entries, limit: limit)
        if lines > limit { rewrite() }
    }

    /// Adds `line` to the history and to the file, when the history `accepts` it.
    func add(_ line: String) {
        guard history.add(line) else { return }
        guard let path, !broken else { return }
        guard makeDirectories(for: path) else { return }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return failed("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard writeAll(descriptor, Array((line + "\n").utf8)) else { return failed("cannot write \(path): \(String(cString: strerror(errno)))") }
        lines += 1
        if lines >= history.limit + history.limit / 4 { rewrite() }
    }

    /// Cuts the file back to its last `limit` lines, as the file holds them now: every session appends its lines
    /// as they are typed, so lines another session added meanwhile are kept. The new file is written beside the
    /// old one (a temporary file in the same directory, mode 0600) and renamed over it, so the file is whole at
    /// every moment.
    private func rewrite() {
        guard let path, !broken, makeDirectories(for: path) else { return }
        let current = (Self.read(path) ?? "").split(separator: "\n").suffix(history.limit)
        var template = Array((path + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { return failed("cannot write a temporary file beside \(path): \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let text = current.map { $0 + "\n" }.joined()
        let written = writeAll(descriptor, Array(text.utf8))
        close(descriptor)
        guard written, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return failed("cannot write \(path): \(reason)")
        }
        lines = current.count
    }

    /// Makes the directories above `path` (mode 0700); warns and returns false when it cannot.
    private func makeDirectories(for path: String) -> Bool {
        var directory = ""
        for part in path.split(separator: "/").dropLast() {
            directory += "/" + part
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                failed("cannot make \(directory): \(String(cString: strerror(errno)))")
                return false
            }
        }
        return true
    }

    /// Warns once that the history is not saved, and stops trying.
    private func failed(_ reason: String) {
        broken = true
        warn("taskls repl: history not saved: \(reason)")
    }

    /// The whole file at `path` as text, or nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes all of `bytes`; false on an error.
    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            rest = rest.dropFirst(written)
        }
        return true
    }
}
