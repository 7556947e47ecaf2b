/// Logging to stderr, never stdout: stdout is the protocol.

#if canImport(Glibc)
import Glibc
#endif

/// How much to log.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case error = 1, warning, info, debug

    /// The level named `name` (`error`, `warning`, `info`, `debug`), if any.
    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }

    /// The level's name on the command line.
    public var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .info: "info"
        case .debug: "debug"
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes log lines (`taskls: warning: …`) to a file descriptor, stderr by default.
public struct Logger: Sendable {
    /// The most detailed level written.
    public var level: LogLevel
    /// Where lines go (stderr by default; -1 writes nothing).
    public var fileDescriptor: Int32

    /// A logger writing lines up to `level` to `fileDescriptor`.
    public init(level: LogLevel = .warning, fileDescriptor: Int32 = 2) {
        self.level = level
        self.fileDescriptor = fileDescriptor
    }

    /// A logger that writes nothing.
    public static var silent: Logger { Logger(level: .error, fileDescriptor: -1) }

    /// Whether a message at `level` would be written.
    public func enabled(_ level: LogLevel) -> Bool { fileDescriptor >= 0 && level <= self.level }

    /// Writes `message` at `level` if enabled; the message is built only then.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard enabled(level) else { return }
        let line = "taskls: \(level.name): \(message())\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
