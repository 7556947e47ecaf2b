// A real Taskwarrior 2.6 database for the tests that prove the Taskwarrior format against the real tool: made in a
// temporary directory, driven through the `task` program, exported, imported, and two exports compared field by field.

import Domain
import Foundation
import Interchange
import TestSupport
import Wire

/// A Taskwarrior database of its own (a `taskrc` and a data directory in a temporary directory), driven through the
/// `task` program with `rc.confirmation=off rc.verbose=nothing`, in a time zone of the test's choosing.
///
/// Shared by the format's tests and the store's: `TaskwarriorDatabase.sample(zone:)` builds the database the round
/// trips start from (dues, priorities, tags, the projects `Home` and `Work.Reports`, two UDAs, annotations, a
/// modified, a done, a started, a waiting, a dependent and a deleted task, a weekly series with an instance done and
/// a monthly one with an instance deleted, and a series every 2 hours that taskls cannot repeat);
/// `TaskwarriorDatabase.differences(_:_:)` compares two exports task by task.
struct TaskwarriorDatabase {
    /// The `task` program, or nil when it is not installed.
    static let program: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return (directories.map { $0 + "/task" } + ["/usr/bin/task"]).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The UDAs every database of the tests defines (the fresh one must know them too, or Taskwarrior writes a
    /// number back as a string).
    static let udaLines = ["uda.estimate.type=numeric", "uda.estimate.label=Estimate",
                           "uda.size.type=string", "uda.size.label=Size", "uda.size.values=S,M,L,"]

    /// The directory holding `taskrc` and `data`.
    let directory: String
    /// The zone `task` runs in (`TZ`).
    let zoneName: String

    /// Whether `task` is there; when it is not, says `MARKER: skipped (REASON)` on stderr (else `MARKER: ran`).
    static func available(marker: String) -> Bool {
        guard program != nil else {
            FileHandle.standardError.write(Data("\(marker): skipped (task is not installed)\n".utf8))
            return false
        }
        FileHandle.standardError.write(Data("\(marker): ran\n".utf8))
        return true
    }

    /// An empty database in a new temporary directory, `task` running in `zoneName`.
    init(zoneName: String) throws {
        directory = makeTemporaryDirectory(prefix: "taskls-taskwarrior")
        self.zoneName = zoneName
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        try writeTextFile(directory + "/taskrc", (["data.location=\(directory)/data"] + Self.udaLines).joined(separator: "\n") + "\n")
    }

    /// Removes the directory.
    func remove() { removeTree(directory) }

    /// Runs `task ARGUMENTS`; its standard output. A status other than 0 throws with what it printed.
    @discardableResult
    func task(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.program ?? "task")
        process.arguments = ["rc.confirmation=off", "rc.verbose=nothing", "rc.hooks=off"] + arguments
        process.environment = ["TASKRC": directory + "/taskrc", "TASKDATA": directory + "/data", "TZ": zoneName,
                               "HOME": directory, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let output = directory + "/output", errors = directory + "/errors"
        try writeTextFile(output, "")
        try writeTextFile(errors, "")
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let printed = readTextFile(output) ?? ""
        guard process.terminationStatus == 0 else {
            throw FileError("task \(arguments.joined(separator: " ")) ended with \(process.terminationStatus): "
                + printed + (readTextFile(errors) ?? ""))
        }
        return printed
    }

    /// `task export`.
    func export() throws -> String { try task(["export"]) }

    /// `task import` of `text`.
    func importText(_ text: String) throws {
        let path = directory + "/import.json"
        try writeTextFile(path, text)
        try task(["import", path])
    }

    /// The tasks of an export by uuid.
    static func tasks(of export: String) throws -> [String: JSONObject] {
        guard case .array(let elements) = try JSONParser.parse(export) else { throw FileError("an export is not an array") }
        var tasks: [String: JSONObject] = [:]
        for case .object(let task) in elements {
            if case .string(let uuid)? = task["uuid"] { tasks[uuid] = task }
        }
        return tasks
    }

    /// Every difference between two exports, task by task (by uuid) and field by field, in words; empty when
    /// they hold the same tasks. `id` and `urgency` are ignored (Taskwarrior computes them: `id` from a task's
    /// place in its pending file, `urgency` from the fields and the clock), numbers compare as numbers (`task
    /// import` writes `3` back as `3.000000`), and the tasks in `leftOut` are expected only in `first`.
    static func differences(_ first: String, _ second: String, leftOut: Set<String> = []) throws -> [String] {
        let before = try tasks(of: first), after = try tasks(of: second)
        var found: [String] = []
        for uuid in before.keys.sorted() where !leftOut.contains(uuid) {
            guard let other = after[uuid] else {
                found.append("\(uuid): missing from the second export")
                continue
            }
            let task = before[uuid]!
            let names = Set(task.keys + other.keys).subtracting(["id", "urgency"]).sorted()
            for name in names where !sameValue(task[name], other[name]) {
                found.append("\(uuid) \(name): \(task[name]?.text ?? "absent") then \(other[name]?.text ?? "absent")")
            }
        }
        for uuid in Set(after.keys).subtracting(before.keys).sorted() {
            found.append("\(uuid): only in the second export")
        }
        for uuid in leftOut.sorted() where after[uuid] != nil { found.append("\(uuid): should have been left out") }
        return found
    }

    private static func sameValue(_ first: JSON?, _ second: JSON?) -> Bool {
        switch (first, second) {
        case (.integer(let a)?, .double(let b)?), (.double(let b)?, .integer(let a)?): return Double(a) == b
        case (.array(let a)?, .array(let b)?): return a.count == b.count && zip(a, b).allSatisfy { sameValue($0, $1) }
        case (.object(let a)?, .object(let b)?):
            return Set(a.keys) == Set(b.keys) && a.keys.allSatisfy { sameValue(a[$0], b[$0]) }
        default: return first == second
        }
    }

    /// The day `days` from today in `zoneName`, `YYYY-MM-DD`, for `due:` words.
    func day(from days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zoneName)!
        let date = calendar.date(byAdding: .day, value: days, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The uuid of the task `filter` finds first (`task FILTER _uuids`).
    func uuid(_ filter: [String]) throws -> String {
        let uuids = try task(filter + ["_uuids"]).split(whereSeparator: \.isWhitespace)
        guard let first = uuids.first else { throw FileError("no task matches \(filter)") }
        return String(first)
    }

    /// The database the round trips start from, built with `task add`, `annotate`, `modify`, `done`, `start`,
    /// `delete` and recurring tasks (see the type's summary). Returns it and the uuid of its deleted task.
    static func sample(zoneName: String) throws -> (database: TaskwarriorDatabase, deleted: String) {
        let database = try TaskwarriorDatabase(zoneName: zoneName)
        try database.task(["add", "Buy milk", "due:\(database.day(from: 3))", "priority:H", "+home", "+errands", "project:Home"])
        try database.task(["add", "Write report", "due:\(database.day(from: 5))T09:30", "project:Work.Reports",
                           "estimate:3", "size:M"])
        try database.task(["add", "Plain task"])
        try database.task(["add", "Call the bank", "wait:\(database.day(from: 10))", "scheduled:\(database.day(from: 12))",
                           "due:\(database.day(from: 14))T17:45", "priority:M"])
        try database.task(["add", "Pack for the trip", "project:Home", "until:\(database.day(from: 30))", "priority:L", "+travel"])
        let milk = try database.uuid(["Buy milk"])
        try database.task([milk, "annotate", "first note"])
        try database.task([milk, "annotate", "second note, with a comma"])
        try database.task([milk, "start"])
        try database.task([try database.uuid(["Write report"]), "modify", "priority:L", "+work", "estimate:4.5"])
        try database.task([try database.uuid(["Plain task"]), "done"])
        try database.task(["add", "Depends on two", "depends:\(milk),\(try database.uuid(["Write report"]))"])
        try database.task(["add", "Gone soon"])
        let deleted = try database.uuid(["Gone soon"])
        try database.task([deleted, "delete"])
        try database.task(["add", "Water plants", "recur:weekly", "due:\(database.day(from: -15))", "project:Home", "+garden"])
        try database.task(["add", "Pay rent", "recur:monthly", "due:\(database.day(from: -40))", "until:\(database.day(from: 400))",
                           "priority:H"])
        try database.task(["add", "Stretch", "recur:2h", "due:\(database.day(from: 2))T08:00"])
        try database.task(["list"])
        let plants = try database.uuid(["Water plants", "status:pending", "imask:0"])
        try database.task([plants, "done"])
        try database.task([try database.uuid(["Water plants", "status:pending", "imask:1"]), "annotate", "this week's"])
        try database.task([try database.uuid(["Pay rent", "status:pending", "imask:0"]), "delete"])
        return (database, deleted)
    }
}

/// A real zone from Foundation's database, as the server passes one in.
struct TaskwarriorTestZone: ZoneOffsets, Sendable {
    let zone: TimeZone

    init(_ identifier: String) { zone = TimeZone(identifier: identifier)! }

    func offsetSeconds(at instant: Timestamp) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

/// Zones by name from Foundation's database.
struct TaskwarriorTestZones: ZoneDatabase {
    func zone(named name: String) -> (any ZoneOffsets & Sendable)? {
        TimeZone(identifier: name).map { _ in TaskwarriorTestZone(name) }
    }
}

extension ReadOptions {
    /// Options for a Taskwarrior file read in `zone`.
    static func taskwarrior(_ zone: String, fileName: String = "tasks.json", skipInvalid: Bool = false) -> ReadOptions {
        ReadOptions(fileName: fileName, localZone: TaskwarriorTestZone(zone), zones: TaskwarriorTestZones(),
                    skipInvalid: skipInvalid)
    }
}

extension WriteOptions {
    /// Options for writing in `zone` at 2026-11-26T12:00:00Z.
    static func taskwarrior(_ zone: String) -> WriteOptions {
        WriteOptions(localZone: TaskwarriorTestZone(zone), localZoneName: zone, now: Timestamp(milliseconds: 1_795_694_400_000))
    }
}
