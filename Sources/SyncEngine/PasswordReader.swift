// PasswordReader: an account's password, got at sync time from a command or a file, held only in memory.

import Foundation

/// Gets passwords. The password is never written anywhere, logged or passed in a process's arguments.
public enum PasswordReader {
    /// The first line of what `source` gives (a trailing `\r` dropped).
    /// - Throws: when the command fails or prints nothing, or the file cannot be read or is empty; the message
    ///   says which, never what was read.
    public static func read(_ source: PasswordSource) throws(SyncError) -> String {
        let text: String
        switch source {
        case .command(let command):
            text = try run(command)
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw SyncError("the password file \(path) cannot be read")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        var line = text.prefix { $0 != "\n" && $0 != "\r\n" }
        if line.hasSuffix("\r") { line = line.dropLast() }
        guard !line.isEmpty else {
            switch source {
            case .command(let command): throw SyncError("the password command `\(command)` printed nothing")
            case .file(let path): throw SyncError("the password file \(path) is empty")
            }
        }
        return String(line)
    }

    private static func run(_ command: String) throws(SyncError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw SyncError("the password command `\(command)` cannot be run: \(error)")
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let first = String(decoding: complaint, as: UTF8.self).split(separator: "\n").first.map { ": \($0)" } ?? ""
            throw SyncError("the password command `\(command)` exited with \(process.terminationStatus)\(first)")
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
