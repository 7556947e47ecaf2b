// The iCalendar files taskls writes, read by Python's `icalendar` and `vobject` (markers `ics-icalendar`,
// `ics-vobject`): each must give the VTODOs, UIDs, SUMMARYs and DUE instants taskls's own reader gives.

import Domain
import Foundation
import Interchange
import Testing

/// The script the checks run: `python3 SCRIPT icalendar|vobject FILE…` prints, as JSON, each file's VTODOs as
/// `[UID, SUMMARY, DUE]` (DUE a day `YYYY-MM-DD`, an instant in UTC `YYYY-MM-DDTHH:MM:SSZ`, or null), or its error.
private let checkScript = #"""
import sys, json, datetime

def due_text(value):
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return "floating " + value.isoformat()
        return value.astimezone(datetime.timezone.utc).replace(tzinfo=None).isoformat()[:19] + "Z"
    return value.isoformat()

def read_icalendar(data):
    import icalendar
    todos = []
    for calendar in icalendar.Calendar.from_ical(data, multiple=True):
        for todo in calendar.walk("VTODO"):
            due = todo.get("DUE")
            todos.append([str(todo["UID"]), str(todo["SUMMARY"]), due_text(due.dt if due is not None else None)])
    return todos

def read_vobject(data):
    import vobject
    # vobject keeps one zone a TZID for the whole process; each file is read on its own.
    vobject.icalendar.__dict__["__tzidMap"].clear()
    todos = []
    for calendar in vobject.readComponents(data.decode("utf-8")):
        for todo in getattr(calendar, "vtodo_list", []):
            due = getattr(todo, "due", None)
            todos.append([todo.uid.value, todo.summary.value, due_text(due.value if due is not None else None)])
    return todos

reader = read_icalendar if sys.argv[1] == "icalendar" else read_vobject
results = []
for path in sys.argv[2:]:
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        results.append({"todos": reader(data)})
    except Exception as error:
        results.append({"error": repr(error)})
print(json.dumps(results))
"""#

/// Runs `python3` with `arguments`; its exit status, standard output and standard error.
func icsRunPython(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

/// Why `python3` cannot import `icalendar` or `vobject`, for each it cannot (asked once).
private let pythonMissing: [String: String] = {
    var missing: [String: String] = [:]
    for module in ["icalendar", "vobject"] {
        guard let result = try? icsRunPython(["-c", "import \(module)"]) else {
            missing[module] = "python3 is not installed"
            continue
        }
        if result.status != 0 { missing[module] = "python3 cannot import \(module)" }
    }
    return missing
}()

/// Whether `python3` can import `module`; when it cannot, says `MARKER: skipped (REASON)` on stderr.
func icsPythonHas(_ module: String, marker: String) -> Bool {
    guard let reason = pythonMissing[module] else { return true }
    FileHandle.standardError.write(Data("\(marker): skipped (\(reason))\n".utf8))
    return false
}

/// What taskls's reader finds in a file: each VTODO as `[UID, SUMMARY, DUE]`, DUE as the script writes it.
private func ownReading(_ text: String) throws -> [[String?]] {
    try icsRead(text, options: icsReadOptions(zones: ICalendarTestZones())).document.tasks.map { task in
        let due: String? = switch task.due {
        case .date(let date)?: date.iso8601
        case .dateTime(let instant, _)?: String(instant.iso8601.prefix(19)) + "Z"
        case nil: nil
        }
        return [task.uid, task.title, due]
    }
}

/// Has `icalendar` and `vobject` read each of `texts` and checks they find what taskls's reader finds (the VTODO
/// count, each UID, SUMMARY and DUE instant). Skipped, with a marker, where Python or a package is missing.
func icsCheckWithPython(_ texts: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskls-ics-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("check.py")
    try Data(checkScript.utf8).write(to: script)
    var paths: [String] = []
    for (index, text) in texts.enumerated() {
        let path = directory.appendingPathComponent("\(index).ics")
        try Data(text.utf8).write(to: path)
        paths.append(path.path)
    }
    let expected = try texts.map(ownReading)
    for (module, marker) in [("icalendar", "ics-icalendar"), ("vobject", "ics-vobject")] {
        guard icsPythonHas(module, marker: marker) else { continue }
        let run = try icsRunPython([script.path, module] + paths)
        try #require(run.status == 0, "\(module): \(run.error)", sourceLocation: sourceLocation)
        let results = try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]],
                                   sourceLocation: sourceLocation)
        #expect(results.count == texts.count, sourceLocation: sourceLocation)
        for (index, result) in results.enumerated() {
            if let error = result["error"] {
                Issue.record("\(module) cannot read file \(index): \(error)\n\(texts[index])", sourceLocation: sourceLocation)
                continue
            }
            let todos = (result["todos"] as? [[Any]] ?? []).map { $0.map { $0 as? String } }
            #expect(todos.count == expected[index].count, "\(module), file \(index): VTODOs", sourceLocation: sourceLocation)
            let differences = zip(todos, expected[index]).filter { $0.0 != $0.1 }
            let first = differences.prefix(3).map { "\($0.0) ≠ \($0.1)" }.joined(separator: "; ")
            #expect(differences.isEmpty, "\(module), file \(index): \(differences.count) differ, first: \(first)",
                    sourceLocation: sourceLocation)
        }
        FileHandle.standardError.write(Data("\(marker): ran\n".utf8))
    }
}
