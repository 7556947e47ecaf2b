/// `taskls-bench machine`: issue 21's table ("close to the machine"), every figure beside its target, measured in
/// one run: spawn to a first ready view through the binary at 10k, 100k and 1M items (stores with a journal tail),
/// resident memory per item with one and three views open and for a further sort index (in fresh child processes,
/// `machine-probe rss`), the 50-row window's decode + encode (typed, and the generic `JSON` tree beside it), and pipelined `server/ping` beside the echo ceiling
/// on the same pipes (`machine-probe echo`), driven by the same client code.

#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Transcript
import Wire

/// Runs the machine benchmark and returns its table.
func runMachineBenchmark() -> String {
    var rows: [MachineRow] = []
    var notes: [String] = []
    var stores: [MachineStore] = []
    notes.append("load average at the start: " + loadAverage())
    defer { for store in stores { store.remove() } }
    do {
        let warmUp = try MachineStore.make(items: 100)
        stores.append(warmUp)
        rows += try spawnRows(warmUp, label: "100", runs: 7, target: .nan)
        for (count, runs, target) in [(10_000, 7, 15.0), (100_000, 5, .nan), (1_000_000, 3, 400.0)] {
            let store = try MachineStore.make(items: count)
            stores.append(store)
            notes.append("\(label(count)) store: \(format(Double(store.snapshotBytes) / 1e6, 1)) MB snapshot + "
                         + "\(format(Double(store.journalBytes) / 1e6, 1)) MB journal (\(count / 5) mutations), \(store.items) items")
            rows += try spawnRows(store, label: label(count), runs: runs, target: target)
            rows += try memoryRows(store, warmUp: warmUp, label: label(count))
            store.remove()
            stores.removeLast()
        }
    } catch {
        rows.append(MachineRow("stores, spawn and memory", failed: error))
    }
    rows += windowRows()
    do {
        rows += try pipelinedRows()
    } catch {
        rows.append(MachineRow("pipelined server/ping and the echo ceiling", failed: error))
    }
    notes.append("load average at the end: " + loadAverage())
    if let wide = measureWideViews() {
        rows.append(MachineRow("one mutation, 150 open views × 1,000-row windows", wide.micros / 1000, "ms", digits: 2, atMost: 2,
                               note: "the slowest operation's p50 CPU (\(wide.operation)); taskls-bench wide has each"))
    } else {
        rows.append(MachineRow("one mutation, 150 open views × 1,000-row windows", failed: ProcessError("the wide benchmark failed")))
    }
    return table("machine: issue 21's table, one run (release build; the machine is noisy, compare ratios)",
                 ["measure", "value", "target", "met?", "note"], rows.map(\.cells))
        + notes.map { "- " + $0 }.joined(separator: "\n") + "\n"
}

/// One row of the table: a measure, its value, its target and whether it is met.
struct MachineRow {
    var cells: [String]

    /// A figure `value` in `unit` with `digits` decimals; `atMost` / `atLeast` is its target (nil: none).
    init(_ measure: String, _ value: Double, _ unit: String, digits: Int = 0, atMost: Double? = nil, atLeast: Double? = nil,
         note: String = "") {
        let suffix = unit.isEmpty ? "" : " " + unit
        let shown = value.isNaN ? "n/a" : grouped(value, digits) + suffix
        var target = "-"
        var met = "-"
        if let atMost {
            target = "≤ " + grouped(atMost, 0) + suffix
            met = value <= atMost ? "yes" : "no"
        } else if let atLeast {
            target = "≥ " + grouped(atLeast, 0) + suffix
            met = value >= atLeast ? "yes" : "no"
        }
        cells = [measure, shown, target, met, note]
    }

    /// A row saying that `measure` could not be taken.
    init(_ measure: String, failed error: any Error) {
        cells = [measure, "failed", "-", "no", "\(error)"]
    }
}

/// The 1, 5 and 15-minute load averages (`/proc/loadavg`): on 2 cores, above 1 means this run shared them.
private func loadAverage() -> String {
    let fields = (readTextFile("/proc/loadavg") ?? "").split(separator: " ")
    return fields.count >= 3 ? fields[0..<3].joined(separator: " ") + " (1, 5, 15 minutes; 2 cores)" : "unknown"
}

/// `10k`, `100k`, `1M`.
private func label(_ count: Int) -> String {
    count >= 1_000_000 ? "\(count / 1_000_000)M" : count >= 1_000 ? "\(count / 1_000)k" : String(count)
}

/// `value` with `digits` decimals and thousands separated by commas.
func grouped(_ value: Double, _ digits: Int) -> String {
    let text = format(value, digits)
    let integer = text.prefix { $0 != "." }
    let sign = integer.hasPrefix("-") ? "-" : ""
    let digitsOnly = Array(integer.drop { $0 == "-" })
    var result = ""
    for (index, character) in digitsOnly.enumerated() {
        if index > 0 && (digitsOnly.count - index) % 3 == 0 { result += "," }
        result.append(character)
    }
    return sign + result + text.dropFirst(integer.count)
}

/// The median of `samples` and its range as a note.
private func medianAndRange(_ samples: [Double], digits: Int = 1) -> (median: Double, note: String) {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    return (median, "median of \(sorted.count) (\(format(sorted[0], digits))–\(format(sorted[sorted.count - 1], digits)))")
}

// MARK: spawn to a first ready view

/// Spawn → first ready view through the binary, `runs` times (median), and the server's RSS at that moment.
private func spawnRows(_ store: MachineStore, label: String, runs: Int, target: Double) throws -> [MachineRow] {
    var times: [Double] = []
    var processorTimes: [Double] = []
    var resident = 0
    for _ in 0..<runs {
        let run = try spawnToReady(store)
        times.append(run.milliseconds)
        processorTimes.append(run.processorMilliseconds)
        resident = run.residentBytes
    }
    let (median, note) = medianAndRange(times)
    let processor = medianAndRange(processorTimes, digits: 0)
    var rows = [MachineRow("\(label) items: spawn → first ready view (through the binary)", median, "ms", digits: 1,
                           atMost: target.isNaN ? nil : target,
                           note: note + "; the server's CPU until then " + format(processor.median, 0) + " ms (clock ticks)")]
    if store.items >= 1_000_000 {
        rows.append(MachineRow("\(label) items: the server's whole RSS at its first ready view", Double(resident) / Double(store.items),
                               "B/item", note: "\(format(Double(resident) / 1e6, 0)) MB, VmRSS of the taskls process"))
    }
    return rows
}

/// Starts `taskls serve` on the store, sends `initialize`, then (once answered) `lists/open` of the store's list
/// with a 50-row window, and waits for the view to be ready: the milliseconds from the spawn, and the server's
/// RSS and CPU time then. Compaction is held off (`--compact-after`) so every run reads the same journal.
private func spawnToReady(_ store: MachineStore) throws -> (milliseconds: Double, residentBytes: Int, processorMilliseconds: Double) {
    let started = nanoseconds()
    let server = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve", "--store", store.path, "--compact-after", "1000000000000"])
    func request(_ id: Int, _ method: String, _ params: String) -> [UInt8] {
        let body = "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}"
        return Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }
    server.write(request(1, "initialize", "{}"))
    while true {
        guard let message = server.receive(timeout: 120_000) else { throw ProcessError("no answer to initialize: \(server.standardError)") }
        if message["id"] == .integer(1) { break }
    }
    server.write(request(2, "lists/open", "{\"list\":\"\(MachineStore.list)\",\"window\":{\"start\":0,\"end\":50}}"))
    while true {
        guard let message = server.receive(timeout: 120_000) else { throw ProcessError("the view never became ready: \(server.standardError)") }
        if message["id"] == .integer(2), message["error"] != nil { throw ProcessError("lists/open failed: \(message)") }
        if message["id"] == .integer(2), message["result"]?["state"] == .string("ready") { break }
        if message["method"] == .string("view/changed"), message["params"]?["state"] == .string("ready") { break }
    }
    let elapsed = Double(nanoseconds() - started) / 1e6
    let resident = statusBytes("VmRSS", process: String(server.processID))
    let processor = cpuMilliseconds(process: server.processID)
    server.closeInput()
    if server.waitForExit(timeout: 60_000) == nil { server.terminate() }
    return (elapsed, resident, processor)
}

// MARK: memory

/// Resident memory per item after a full load (one and three views) and for the title index, from a fresh child.
private func memoryRows(_ store: MachineStore, warmUp: MachineStore, label: String) throws -> [MachineRow] {
    let probe = try runProbe(["rss", store.path, warmUp.path])
    guard let memory = MemoryProbe(line: probe) else { throw ProcessError("the memory probe said: \(probe)") }
    let items = Double(memory.items)
    func perItem(_ bytes: Int) -> Double { bytes < 0 ? .nan : Double(bytes) / items }
    func megabytes(_ bytes: Int) -> String { format(Double(bytes) / 1e6, 1) + " MB" }
    let large = memory.items >= 1_000_000
    var rows = [
        MachineRow("\(label) items: load in-process (DurableStore.open + Engine)", Double(memory.loadMicroseconds) / 1000, "ms",
                   digits: 1, note: (memory.snapshotMicroseconds < 0 ? "" : "snapshot read + decoded at "
                       + format(Double(memory.snapshotMicroseconds) / 1000, 1) + " ms, then the journal tail; ")
                       + "CPU " + format(Double(memory.loadCPUMicroseconds) / 1000, 1) + " ms; the memory probe's own load"),
        MachineRow("\(label) items: RSS per item, loaded, one view (manual)", perItem(memory.oneView - memory.before), "B/item",
                   atMost: large ? 250 : nil, note: megabytes(memory.oneView - memory.before) + "; no view: "
                       + format(perItem(memory.loaded - memory.before), 0) + " B/item"
                       + (memory.manualFillPercent < 0 ? "" : "; the manual order's leaves \(memory.manualFillPercent)% full")),
        MachineRow("\(label) items: RSS per item, three views (manual, by title, by due)", perItem(memory.threeViews - memory.before),
                   "B/item", note: megabytes(memory.threeViews - memory.before)),
        MachineRow("\(label) items: peak RSS during the load", perItem(memory.loadPeak < 0 ? -1 : memory.loadPeak - memory.before),
                   "B/item", note: memory.loadPeak < 0 ? "VmHWM could not be reset" : megabytes(memory.loadPeak - memory.before)),
    ]
    if large {
        rows.append(MachineRow("\(label) items: a further sort index (title), RSS", perItem(memory.twoViews - memory.beforeTitle),
                               "B/item", atMost: 40, note: megabytes(memory.twoViews - memory.beforeTitle)))
        rows.append(MachineRow("\(label) items: a further sort index (title), peak during its build",
                               perItem(memory.titlePeak < 0 ? -1 : memory.titlePeak - memory.beforeTitle), "B/item", atMost: 60,
                               note: memory.titlePeak < 0 ? "VmHWM could not be reset" : megabytes(memory.titlePeak - memory.beforeTitle)))
        rows.append(MachineRow("\(label) items: the due index after it, RSS", perItem(memory.threeViews - memory.twoViews), "B/item",
                               note: megabytes(memory.threeViews - memory.twoViews)))
    }
    return rows
}

/// Runs `taskls-bench machine-probe ARGUMENTS` to its end; its output.
private func runProbe(_ arguments: [String]) throws -> String {
    let run = try ServerProcess.run(ownExecutable(), ["machine-probe"] + arguments, timeout: 300_000)
    guard run.status == 0 else { throw ProcessError("machine-probe \(arguments.joined(separator: " ")) failed: \(run.output) \(run.error)") }
    return run.output
}

/// This executable's path (`/proc/self/exe`).
private func ownExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

// MARK: wire

/// Decode + encode of the 50-row window message (`measureRoundTrip`, as `taskls-bench wire`): median of 3, with
/// the thread's CPU time per round trip beside it (what the machine's other work does not inflate as much).
private func windowRows() -> [MachineRow] {
    let generic = windowMessage(rows: 50)
    let change = typedWindowChange(rows: 50)
    let typed = typedWindowMessage(change)
    let iterations = 5_000
    var times: (generic: [Double], typed: [Double], written: [Double], built: [Double]) = ([], [], [], [])
    var processorTimes: [Double] = []
    for _ in 0..<3 {
        times.generic.append(measureRoundTrip(generic, iterations: iterations))
        let before = threadCPUNanoseconds()
        times.typed.append(measureTypedRoundTrip(typed, iterations: iterations))
        processorTimes.append(Double(threadCPUNanoseconds() - before) / 1000 / Double(iterations))
        times.written.append(measureEncoding(change, typed: true, iterations: iterations))
        times.built.append(measureEncoding(change, typed: false, iterations: iterations / 5))
    }
    let (genericMedian, genericNote) = medianAndRange(times.generic, digits: 2)
    let (typedMedian, typedNote) = medianAndRange(times.typed, digits: 2)
    let (writtenMedian, writtenNote) = medianAndRange(times.written, digits: 2)
    let (builtMedian, _) = medianAndRange(times.built, digits: 1)
    let kilobytes = format(Double(typed.count) / 1000, 1)
    return [
        MachineRow("decode + encode a \(kilobytes) KB 50-row view/changed, typed", typedMedian, "µs",
                   digits: 2, atMost: 15, note: typedNote + ", \(grouped(Double(iterations), 0)) round trips each (rows read from "
                       + "and written to the bytes); CPU time " + format(medianAndRange(processorTimes).median, 2) + " µs"),
        MachineRow("the server writing that \(kilobytes) KB view/changed", writtenMedian, "µs", digits: 2,
                   note: writtenNote + "; built as JSON then serialized, as the server wrote it before the typed writers: "
                       + format(builtMedian, 1) + " µs"),
        MachineRow("decode + encode a \(format(Double(generic.count) / 1000, 1)) KB 50-row window, generic JSON tree", genericMedian,
                   "µs", digits: 2, note: genericNote + " (Message.decode into JSON, JSONSerializer back: what the typed row replaces)"),
    ]
}

/// Nanoseconds of CPU time this thread used so far.
private func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// Pipelined `server/ping` through the binary and the echo loop's ceiling on the same pipes, alternately, three
/// rounds of 200,000 requests each (≤ 512 in flight), driven by `pipelinedPingRate`.
private func pipelinedRows() throws -> [MachineRow] {
    let directory = makeTemporaryDirectory(prefix: "taskls-bench-machine-ping")
    defer { removeTree(directory) }
    let server = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve"], environment: ["TASKLS_STORE": directory])
    try initializeServer(server)
    let echo = try ServerProcess(executable: ownExecutable(), arguments: ["machine-probe", "echo"])
    try initializeServer(echo)
    var served: [Double] = []
    var echoed: [Double] = []
    for _ in 0..<3 {
        served.append(try pipelinedPingRate(server, total: 200_000))
        echoed.append(try pipelinedPingRate(echo, total: 200_000))
    }
    for process in [server, echo] {
        process.closeInput()
        if process.waitForExit(timeout: 10_000) == nil { process.terminate() }
    }
    let ping = medianAndRange(served, digits: 0)
    let ceiling = medianAndRange(echoed, digits: 0)
    let ratio = ping.median / ceiling.median
    return [
        MachineRow("pipelined server/ping (through the binary)", ping.median, "req/s", atLeast: 1_000_000,
                   note: "\(format(ratio * 100, 0))% of the echo ceiling; " + ping.note),
        MachineRow("the ceiling: an echo loop on the same pipes, same client", ceiling.median, "req/s",
                   note: "machine-probe echo (raw read(2)/write(2), no allocation per message); " + ceiling.note),
        MachineRow("server/ping ÷ the ceiling", ratio, "", digits: 2, note: "the issue's run: 696k ÷ 1.53M = 0.45"),
    ]
}
