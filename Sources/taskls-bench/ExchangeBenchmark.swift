/// `taskls-bench exchange`: `taskls import` of a 100,000-task Taskwarrior export and a 100,000-task todo.txt file
/// into a fresh store, through the binary (spawn to exit), beside Taskwarrior's own `task import` of the same
/// Taskwarrior file in the same run (when `task` is installed). Target: under 2 s each.

import Foundation
import TestSupport

func runExchangeBenchmark(tasks count: Int = 100_000) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskls-bench-exchange-\(getpid())")
    try? FileManager.default.removeItem(at: directory)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let taskwarriorFile = directory.appendingPathComponent("export.json").path
    let todoFile = directory.appendingPathComponent("todo.txt").path
    _ = FileManager.default.createFile(atPath: taskwarriorFile, contents: Data(taskwarriorExport(count).utf8))
    _ = FileManager.default.createFile(atPath: todoFile, contents: Data(todoText(count).utf8))
    var rows: [[String]] = []
    let taskwarrior = timeProcess(BuildPaths.taskls, ["import", taskwarriorFile, "--format", "taskwarrior",
                                                      "--store", directory.appendingPathComponent("store-tw").path])
    rows.append(["taskls import (Taskwarrior JSON)", taskwarrior.text, "< 2 s", taskwarrior.seconds.map { $0 < 2 ? "met" : "NOT met" } ?? "failed"])
    let todo = timeProcess(BuildPaths.taskls, ["import", todoFile, "--format", "todotxt",
                                               "--store", directory.appendingPathComponent("store-todo").path])
    rows.append(["taskls import (todo.txt)", todo.text, "< 2 s", todo.seconds.map { $0 < 2 ? "met" : "NOT met" } ?? "failed"])
    let again = timeProcess(BuildPaths.taskls, ["import", taskwarriorFile, "--format", "taskwarrior",
                                                "--store", directory.appendingPathComponent("store-tw").path])
    rows.append(["taskls import again (all unchanged)", again.text, "", ""])
    if let task = findExecutable("task") {
        let data = directory.appendingPathComponent("taskdata").path
        try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let rc = directory.appendingPathComponent("taskrc").path
        _ = FileManager.default.createFile(atPath: rc, contents: Data("data.location=\(data)\nconfirmation=off\nverbose=nothing\n".utf8))
        let timed = timeProcess(task, ["rc.hooks=off", "import", taskwarriorFile], environment: ["TASKRC": rc, "TASKDATA": data],
                                timeout: 600)
        var ratio = ""
        if let theirs = timed.seconds, let ours = taskwarrior.seconds { ratio = format(theirs / ours) + "x taskls's time" }
        rows.append(["task import (Taskwarrior 2.6), same file", timed.text, ratio, ""])
    } else {
        rows.append(["task import (Taskwarrior 2.6)", "skipped (task is not installed)", "", ""])
    }
    return table("Import of \(count) tasks into a fresh store, spawn to exit (one run each)", ["what", "time", "target", ""], rows)
}

/// A Taskwarrior 2.6 export: projects, tags, dues, priorities, annotations, some completed.
private func taskwarriorExport(_ count: Int) -> String {
    var text = "[\n"
    text.reserveCapacity(count * 300)
    for index in 0..<count {
        let uuid = String(format: "%08lx-%04lx-4%03lx-8%03lx-%012lx", index, index % 65_536, index % 4_096, (index / 7) % 4_096, index * 7_919)
        var fields = "{\"id\":\(index + 1),\"description\":\"Task number \(index) with some words\",\"entry\":\"20260101T090000Z\",\"modified\":\"20260102T090000Z\""
        fields += ",\"project\":\"\(["Home", "Work.Reports", "Errands", "Garden"][index % 4])\""
        if index % 3 == 0 { fields += ",\"due\":\"202612\(String(format: "%02d", index % 28 + 1))T230000Z\"" }
        if index % 5 == 0 { fields += ",\"priority\":\"\(["H", "M", "L"][index % 3])\"" }
        if index % 2 == 0 { fields += ",\"tags\":[\"t\(index % 10)\",\"next\"]" }
        if index % 11 == 0 { fields += ",\"annotations\":[{\"entry\":\"20260103T100000Z\",\"description\":\"note \(index)\"}]" }
        if index % 9 == 0 {
            fields += ",\"status\":\"completed\",\"end\":\"20260105T120000Z\""
        } else {
            fields += ",\"status\":\"pending\""
        }
        fields += ",\"uuid\":\"\(uuid)\",\"urgency\":\(index % 13)}"
        text += fields + (index + 1 < count ? ",\n" : "\n")
    }
    return text + "]\n"
}

/// A todo.txt file: priorities, dates, projects, contexts, dues, some done.
private func todoText(_ count: Int) -> String {
    var text = ""
    text.reserveCapacity(count * 80)
    for index in 0..<count {
        var line = index % 9 == 0 ? "x 2026-01-05 2026-01-01 " : (index % 5 == 0 ? "(\(["A", "B", "C"][index % 3])) 2026-01-01 " : "")
        line += "Task number \(index) +\(["Home", "Work", "Errands", "Garden"][index % 4])"
        if index % 2 == 0 { line += " @ctx\(index % 10)" }
        if index % 3 == 0 { line += " due:2026-12-\(String(format: "%02d", index % 28 + 1))" }
        text += line + "\n"
    }
    return text
}

/// Runs a program to its end; its wall time, or why not.
func timeProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                         timeout: Double = 300) -> (seconds: Double?, text: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    let start = nanoseconds()
    do {
        try process.run()
    } catch {
        return (nil, "failed to start: \(error)")
    }
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    if finished.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        return (nil, "over \(Int(timeout)) s (stopped)")
    }
    let seconds = Double(nanoseconds() - start) / 1e9
    guard process.terminationStatus == 0 else {
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (nil, "exit \(process.terminationStatus): \(message.prefix(200))")
    }
    return (seconds, format(seconds * 1000, 0) + " ms")
}

func findExecutable(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}
