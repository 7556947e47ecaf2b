/// `taskls-bench machine-probe rss STORE WARMUP`: resident memory of a store loaded as the server loads it
/// (`DurableStore.open`, then `Engine(state:today:)`), with one, two and three views open on its list, read from
/// `/proc/self/status` in a process that did nothing else but load the tiny store WARMUP the same way first (so
/// that the code's pages are resident before the first figure). Prints `name=bytes` pairs on one line.

#if canImport(Glibc)
import Glibc
#endif
import Domain
import Store
import TestSupport

/// What a memory probe measured, in bytes (`-1`: the peak could not be reset, so no peak was measured).
struct MemoryProbe {
    /// RSS before the load.
    var before = 0
    /// Peak RSS (VmHWM) at the end of the load.
    var loadPeak = 0
    /// RSS after the load, no view open.
    var loaded = 0
    /// RSS with a manual-order view open.
    var oneView = 0
    /// RSS just before the title index was built (the manual view open).
    var beforeTitle = 0
    /// Peak RSS while the title index was built and installed (VmHWM reset just before).
    var titlePeak = 0
    /// RSS with the manual and title views open.
    var twoViews = 0
    /// RSS with the manual, title and due views open.
    var threeViews = 0
    /// Items loaded.
    var items = 0
    /// Microseconds of the load (`DurableStore.open` and `Engine(state:today:)`).
    var loadMicroseconds = 0
    /// Microseconds of CPU time the load took, on every core.
    var loadCPUMicroseconds = 0
    /// Microseconds of it until the snapshot was decoded (before the journal tail), -1 when not seen.
    var snapshotMicroseconds = -1
    /// How full the leaves of the list's manual order are after the load, in percent; -1 for an empty list.
    var manualFillPercent = -1

    static let names = ["before", "loadPeak", "loaded", "oneView", "beforeTitle", "titlePeak", "twoViews", "threeViews", "items", "loadMicroseconds",
                        "loadCPUMicroseconds", "snapshotMicroseconds", "manualFillPercent"]
    static var fields: [WritableKeyPath<MemoryProbe, Int>] {
        [\.before, \.loadPeak, \.loaded, \.oneView, \.beforeTitle, \.titlePeak, \.twoViews, \.threeViews, \.items, \.loadMicroseconds, \.loadCPUMicroseconds,
         \.snapshotMicroseconds, \.manualFillPercent]
    }

    /// The line the probe prints.
    var line: String { zip(Self.names, Self.fields).map { "\($0)=\(self[keyPath: $1])" }.joined(separator: " ") }

    /// Reads a probe's line; nil when a field is missing.
    init?(line: String) {
        var values: [String: Int] = [:]
        for pair in line.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        for (name, field) in zip(Self.names, Self.fields) {
            guard let value = values[name] else { return nil }
            self[keyPath: field] = value
        }
    }

    init() {}
}

/// Runs the probe on the store at `path`, after the same steps on the store at `warmUp`; returns the exit status.
/// Domain and Store calls: `DurableStore.open(_:)`, `Engine(state:today:)`, `Engine.openView(source:sort:window:)`,
/// `IndexBuild.run()`, `Engine.install(_:)`, `TaskState.itemCount`, `TaskState.manualOrderFill(of:)`.
func runMemoryProbe(store path: String, warmUp: String) -> Int32 {
    do {
        var ignored = MemoryProbe()
        try measure(path: warmUp, into: &ignored)
        var probe = MemoryProbe()
        try measure(path: path, into: &probe)
        print(probe.line)
        return 0
    } catch {
        print("error=\(error)")
        return 1
    }
}

/// Loads the store at `path`, opens a view by manual order, by title, by due on its list, and notes the
/// resident memory at each step in `probe`.
private func measure(path: String, into probe: inout MemoryProbe) throws {
    let peakResets = resetPeakResident()
    probe.before = statusBytes("VmRSS")
    // `open` reports progress by bytes read: the snapshot's share, exactly, once the snapshot is decoded.
    var snapshotFile = stat()
    let total = Double(max(1, DurableStore.bytesToRead(at: path)))
    let snapshotShare = stat(path + "/snapshot", &snapshotFile) == 0 ? Double(snapshotFile.st_size) / total : 2
    let started = nanoseconds()
    let startedCPU = cpuMicroseconds()
    var snapshotDecoded: UInt64?
    let (store, state) = try DurableStore.open(path) { fraction in
        if snapshotDecoded == nil && fraction >= snapshotShare - 1e-12 { snapshotDecoded = nanoseconds() }
    }
    probe.snapshotMicroseconds = snapshotDecoded.map { Int(($0 - started) / 1000) } ?? -1
    var engine = Engine(state: state, today: Today.epoch)
    probe.loadMicroseconds = Int((nanoseconds() - started) / 1000)
    probe.loadCPUMicroseconds = cpuMicroseconds() - startedCPU
    probe.items = engine.state.itemCount
    probe.loadPeak = peakResets ? statusBytes("VmHWM") : -1
    probe.loaded = statusBytes("VmRSS")
    let list = ListID(1)
    probe.manualFillPercent = engine.state.manualOrderFill(of: list).map { Int(($0 * 100).rounded()) } ?? -1
    _ = try engine.openView(source: .list(list), sort: .manual, window: Window(start: 0, end: 50))
    probe.oneView = statusBytes("VmRSS")
    resetPeakResident()
    probe.beforeTitle = statusBytes("VmRSS")
    for sort in [Sort(.title), Sort(.due)] {
        let opened = try engine.openView(source: .list(list), sort: sort, window: Window(start: 0, end: 50))
        if let job = opened.build { _ = engine.install(job.run()) }
        if sort == Sort(.title) {
            probe.titlePeak = peakResets ? statusBytes("VmHWM") : -1
            probe.twoViews = statusBytes("VmRSS")
        }
    }
    probe.threeViews = statusBytes("VmRSS")
    withExtendedLifetime(store) {}
}

/// The `field` (`VmRSS`, `VmHWM`) of `/proc/<process>/status` in bytes; 0 when it cannot be read.
func statusBytes(_ field: String, process: String = "self") -> Int {
    let descriptor = open("/proc/\(process)/status", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(field + ":") {
        let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
        return (Int(digits) ?? 0) * 1024
    }
    return 0
}

/// Microseconds of CPU time this process used so far (user and system, every thread).
func cpuMicroseconds() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
}

/// Milliseconds of CPU time process `process` used so far (user and system, from `/proc/<process>/stat`, in
/// clock ticks); -1 when it cannot be read.
func cpuMilliseconds(process: Int32) -> Double {
    guard let text = readTextFile("/proc/\(process)/stat"), let close = text.lastIndex(of: ")") else { return -1 }
    // After the command's closing parenthesis: field 3 (state) onwards; utime and stime are fields 14 and 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
    return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// Sets this process's peak resident memory (VmHWM) to its current RSS (`5` to `/proc/self/clear_refs`);
/// false when the kernel refused.
@discardableResult
func resetPeakResident() -> Bool {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return write(descriptor, "5", 1) == 1
}
