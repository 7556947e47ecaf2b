/// `taskls-bench sync`: CalDAV sync through the binaries against a Radicale on loopback — the first sync of a
/// 1,000-task list (sent: Radicale's PUT slows as a calendar grows), the first sync of a 10,000-task calendar
/// (received: written straight into Radicale's storage), then 10 changes sent from one store and received by another,
/// and a sync with nothing to do. Skipped when `radicale` is not installed.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

func runSyncBenchmark(tasks count: Int = 10_000) -> String {
    let title = "CalDAV sync of a \(grouped(Double(count), 0))-task list through taskls sync, Radicale on loopback (one run each)"
    guard let radicale = findExecutable("radicale") else {
        return table(title, ["what", "time"], [["everything", "skipped (radicale is not installed: apt-get install radicale)"]])
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskls-bench-sync-\(getpid())").path
    try? FileManager.default.removeItem(atPath: directory)
    try? FileManager.default.createDirectory(atPath: directory + "/collections", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    guard let port = freePort() else { return table(title, ["what", "time"], [["everything", "failed: no free port"]]) }
    let config = """
        [server]
        hosts = 127.0.0.1:\(port)
        [auth]
        type = htpasswd
        htpasswd_filename = \(directory)/users
        htpasswd_encryption = plain
        [storage]
        filesystem_folder = \(directory)/collections
        [logging]
        level = warning
        """
    _ = FileManager.default.createFile(atPath: directory + "/config", contents: Data(config.utf8))
    _ = FileManager.default.createFile(atPath: directory + "/users", contents: Data("bench:pw\n".utf8))
    _ = FileManager.default.createFile(atPath: directory + "/password", contents: Data("pw\n".utf8))
    let server = Process()
    server.executableURL = URL(fileURLWithPath: radicale)
    server.arguments = ["--config", directory + "/config"]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    do { try server.run() } catch { return table(title, ["what", "time"], [["everything", "failed: radicale: \(error)"]]) }
    defer {
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }
    guard waitForListener(port: port, seconds: 20) else { return table(title, ["what", "time"], [["everything", "failed: radicale did not listen"]]) }

    let laptop = ["--store", directory + "/laptop"]
    let desktop = ["--store", directory + "/desktop"]
    let phone = ["--store", directory + "/phone"]
    var rows: [[String]] = []
    func step(_ what: String, _ arguments: [String], timed: Bool = true) -> Bool {
        let run = timeProcess(BuildPaths.taskls, arguments, timeout: 3_600)
        if timed || run.seconds == nil { rows.append([what, run.text]) }
        return run.seconds != nil
    }
    func write(_ text: String, to path: String) { _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) }
    func tasksFile(_ count: Int, prefix: String) -> String {
        var lines = ""
        lines.reserveCapacity(count * 48)
        for index in 0..<count { lines += "Task number \(index) +\(prefix)\(index % 3 == 0 ? " due:2026-12-01" : "") uid:\(prefix.lowercased())\(index)\n" }
        return lines
    }
    let account = ["sync", "add", "http://127.0.0.1:\(port)/", "--user", "bench", "--password-file", directory + "/password"]

    // Sending: the laptop's list of `sent` tasks, every one a PUT. Radicale's PUT grows slower as a calendar grows
    // (about 24 ms at 100 members and 110 ms at 900, measured with curl alone), so this part stays at 1,000 tasks
    // unless TASKLS_BENCH_SYNC_SENT says otherwise.
    let sent = getenv("TASKLS_BENCH_SYNC_SENT").flatMap { Int(String(cString: $0)) }.map { max(10, $0) } ?? min(count, 1_000)
    write(tasksFile(sent, prefix: "Sent"), to: directory + "/sent.txt")
    guard step("import", ["import", directory + "/sent.txt"] + laptop, timed: false),
          step("add the account (laptop)", account + laptop, timed: false),
          step("share all (laptop)", ["sync", "share", "--all"] + laptop, timed: false)
    else { return table(title, ["what", "time"], rows) }
    _ = step("first sync, \(grouped(Double(sent), 0)) tasks sent (laptop)", ["sync", "now"] + laptop)

    // Receiving: a calendar of `count` tasks written straight into Radicale's storage (as another client's PUTs
    // would have left it), taken by two stores; then 10 changes sent from one and received by the other.
    let calendar = directory + "/collections/collection-root/bench/big"
    try? FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
    write(#"{"C:supported-calendar-component-set": "VTODO", "D:displayname": "Big", "tag": "VCALENDAR"}"#, to: calendar + "/.Radicale.props")
    for index in 0..<count {
        let due = index % 3 == 0 ? "DUE;VALUE=DATE:20261201\r\n" : ""
        write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//taskls-bench//EN\r\nBEGIN:VTODO\r\nUID:big\(index)\r\n"
              + "DTSTAMP:20261126T100000Z\r\nCREATED:20261126T100000Z\r\nSUMMARY:Task number \(index)\r\n\(due)"
              + "END:VTODO\r\nEND:VCALENDAR\r\n", to: calendar + "/big\(index).ics")
    }
    guard step("add the account (desktop)", account + desktop, timed: false),
          step("share all (desktop)", ["sync", "share", "--all"] + desktop, timed: false),
          step("add the account (phone)", account + phone, timed: false),
          step("share all (phone)", ["sync", "share", "--all"] + phone, timed: false)
    else { return table(title, ["what", "time"], rows) }
    _ = step("first sync, \(grouped(Double(count + sent), 0)) tasks received (a second store)", ["sync", "now"] + desktop)
    _ = step("first sync, \(grouped(Double(count + sent), 0)) tasks received (a third store)", ["sync", "now"] + phone, timed: false)
    var edits = ""
    for index in stride(from: 0, to: count, by: count / 10).prefix(10) { edits += "Task number \(index), changed +Big uid:big\(index)\n" }
    write(edits, to: directory + "/edits.txt")
    _ = step("import 10 changes", ["import", directory + "/edits.txt"] + desktop, timed: false)
    _ = step("delta sync, 10 changes sent (\(grouped(Double(count), 0))-task calendar)", ["sync", "now"] + desktop)
    _ = step("delta sync, 10 changes received", ["sync", "now"] + phone)
    _ = step("a sync with nothing to do", ["sync", "now"] + phone)
    return table(title + "; each is a whole `taskls sync now` process, spawn to exit", ["what", "time"], rows)
}

/// A TCP port nothing listens on now (bound to port 0, read, closed).
private func freePort() -> Int? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
}

/// Whether something accepts connections on 127.0.0.1:`port` within `seconds` (tried every 20 ms).
private func waitForListener(port: Int, seconds: Double) -> Bool {
    let deadline = nanoseconds() + UInt64(seconds * 1e9)
    while nanoseconds() < deadline {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        close(descriptor)
        if connected { return true }
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
        nanosleep(&pause, nil)
    }
    return false
}
