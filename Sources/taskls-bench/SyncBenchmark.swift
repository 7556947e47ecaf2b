/// `taskls-bench sync`: CalDAV sync through the binaries against a Radicale on loopback — the first sync of a
/// 10,000-task list (sent), the first sync of a second store (received), then 10 changes sent from one store and
/// received by the other, and a sync with nothing to do. Skipped when `radicale` is not installed.

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
    var lines = ""
    lines.reserveCapacity(count * 48)
    for index in 0..<count { lines += "Task number \(index) +Bench\(index % 3 == 0 ? " due:2026-12-01" : "") uid:b\(index)\n" }
    _ = FileManager.default.createFile(atPath: directory + "/tasks.txt", contents: Data(lines.utf8))
    var rows: [[String]] = []
    func step(_ what: String, _ arguments: [String], timed: Bool = true) -> Bool {
        let run = timeProcess(BuildPaths.taskls, arguments, timeout: 900)
        if timed || run.seconds == nil { rows.append([what, run.text]) }
        return run.seconds != nil
    }
    let account = ["sync", "add", "http://127.0.0.1:\(port)/", "--user", "bench", "--password-file", directory + "/password"]
    guard step("import", ["import", directory + "/tasks.txt"] + laptop, timed: false),
          step("add the account (laptop)", account + laptop, timed: false), step("share all (laptop)", ["sync", "share", "--all"] + laptop, timed: false),
          step("add the account (desktop)", account + desktop, timed: false), step("share all (desktop)", ["sync", "share", "--all"] + desktop, timed: false)
    else { return table(title, ["what", "time"], rows) }
    _ = step("first sync, \(grouped(Double(count), 0)) tasks sent (laptop)", ["sync", "now"] + laptop)
    _ = step("first sync, \(grouped(Double(count), 0)) tasks received (a second store)", ["sync", "now"] + desktop)
    var edits = ""
    for index in stride(from: 0, to: count, by: count / 10).prefix(10) { edits += "Task number \(index), changed +Bench uid:b\(index)\n" }
    _ = FileManager.default.createFile(atPath: directory + "/edits.txt", contents: Data(edits.utf8))
    _ = step("import 10 changes", ["import", directory + "/edits.txt"] + laptop, timed: false)
    _ = step("delta sync, 10 changes sent", ["sync", "now"] + laptop)
    _ = step("delta sync, 10 changes received", ["sync", "now"] + desktop)
    _ = step("a sync with nothing to do", ["sync", "now"] + desktop)
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
