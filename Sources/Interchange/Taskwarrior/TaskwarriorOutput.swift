// One JSON object of the file being written, member by member, straight into the file's bytes.

import Domain
import Wire

/// Writes one task object's members into a byte buffer, remembering their names so none is written twice.
struct TaskwarriorObjectWriter {
    /// The names written so far.
    private(set) var names: Set<String> = []
    private var first = true

    /// Opens the object.
    init(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
    }

    /// Whether `name` was written.
    func has(_ name: String) -> Bool { names.contains(name) }

    /// Writes `"name":` (nothing, returning false, when `name` was written already).
    private mutating func key(_ name: String, into buffer: inout [UInt8]) -> Bool {
        guard names.insert(name).inserted else { return false }
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        JSONSerializer.write(.string(name), into: &buffer)
        buffer.append(UInt8(ascii: ":"))
        return true
    }

    /// A string member.
    mutating func string(_ name: String, _ value: String, into buffer: inout [UInt8]) {
        guard key(name, into: &buffer) else { return }
        JSONSerializer.write(.string(value), into: &buffer)
    }

    /// A date member, `YYYYMMDDTHHMMSSZ`.
    mutating func date(_ name: String, _ value: Timestamp, into buffer: inout [UInt8]) {
        guard key(name, into: &buffer) else { return }
        buffer.append(UInt8(ascii: "\""))
        TaskwarriorDate.write(value, into: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Any JSON value.
    mutating func value(_ name: String, _ value: JSON, into buffer: inout [UInt8]) {
        guard key(name, into: &buffer) else { return }
        JSONSerializer.write(value, into: &buffer)
    }

    /// Closes the object.
    func close(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "}"))
    }
}
