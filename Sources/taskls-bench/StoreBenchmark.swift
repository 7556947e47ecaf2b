/// The store benchmark: durable mutations through the real binary (pipelined throughput, ack
/// latency, journal bytes per mutation), several processes writing to one store, and a 1M-item
/// store's snapshot and load times.

#if canImport(Glibc)
import Glibc
#endif
import Domain
import Store
import TestSupport
import Transcript
import Wire

func runStoreBenchmark() -> String {
    var rows: [[String]] = []
    do {
        let durable = try measureDurableMutations()
        rows.append(["durable items/create, pipelined (20,000, <= 256 in flight)", format(durable.throughput, 0) + " /s", "one fdatasync per turn (group commit)"])
        rows.append(["ack latency, one at a time, p50", format(durable.latency.p50, 0) + " µs", "write + fdatasync + answer"])
        rows.append(["ack latency, one at a time, p99", format(durable.latency.p99, 0) + " µs", ""])
        rows.append(["journal bytes per items/create", format(durable.bytesPerCreate, 1) + " B", "24-byte record header included"])
        rows.append(["journal bytes per items/update (title)", format(durable.bytesPerUpdate, 1) + " B", ""])
    } catch {
        rows.append(["durable mutations", "failed: \(error)", "build it: swift build -c release"])
    }
    for processes in [1, 2, 4] {
        do {
            let rate = try measureSharedWriters(processes: processes)
            rows.append(["durable mutations/s, \(processes) process\(processes == 1 ? "" : "es") on one store", format(rate, 0) + " /s", "each pipelining 5,000"])
        } catch {
            rows.append(["\(processes) processes", "failed: \(error)", ""])
        }
    }
    do {
        let delay = try measureCrossProcessDelay()
        rows.append(["ack in one process to view/changed in another, p50", format(delay.p50, 0) + " µs", "inotify; target < 200 ms"])
        rows.append(["ack in one process to view/changed in another, p99", format(delay.p99, 0) + " µs", ""])
    } catch {
        rows.append(["cross-process delay", "failed: \(error)", ""])
    }
    do {
        let large = try measureLargeStore(items: 1_000_000)
        rows.append(["1M items: snapshot (encode, write, fsync, install)", format(large.snapshot, 0) + " ms", ""])
        rows.append(["1M items: snapshot size", format(Double(large.snapshotBytes) / 1_048_576, 1) + " MiB", ""])
        rows.append(["1M items: load in-process (read, decode, index)", format(large.load, 0) + " ms", "target < 2,000 ms"])
        rows.append(["1M items: initialize answered", format(large.initialize, 1) + " ms", "the load runs off the loop"])
        rows.append(["1M items: ping answered while loading", format(large.pingWhileLoading, 1) + " ms", ""])
        rows.append(["1M items: start to a ready view (through the binary)", format(large.ready, 0) + " ms", ""])
    } catch {
        rows.append(["1M-item store", "failed: \(error)", ""])
    }
    return table("store (one run; the machine is noisy, compare ratios)", ["measure", "value", "note"], rows)
}

private func request(_ id: Int, _ method: String, _ params: String) -> [UInt8] {
    let body = "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}"
    return Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
}

/// A server on `store`, initialized.
private func startServer(store: String, arguments: [String] = []) throws -> ServerProcess {
    let server = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve", "--store", store] + arguments, environment: [:])
    server.write(request(0, "initialize", "{}"))
    guard server.receiveBody(timeout: 60_000) != nil else { throw ProcessError("no answer to initialize") }
    return server
}

/// Waits for the answer to request `id`, skipping notifications.
private func answer(_ server: ServerProcess, _ id: Int) throws -> JSON {
    while true {
        guard let message = server.receive(timeout: 60_000) else { throw ProcessError("no answer to request \(id)") }
        if message["id"] == .integer(Int64(id)) { return message }
    }
}

private func journalBytes(_ server: ServerProcess, id: Int) throws -> Int {
    server.write(request(id, "store/status", "{}"))
    guard case .integer(let bytes)? = try answer(server, id)["result"]?["journalBytes"] else { throw ProcessError("no journalBytes") }
    return Int(bytes)
}

private func measureDurableMutations() throws
    -> (throughput: Double, recordsPerSync: Double, latency: (p50: Double, p99: Double), bytesPerCreate: Double, bytesPerUpdate: Double)
{
    let store = makeTemporaryDirectory(prefix: "taskls-bench-store")
    defer { removeTree(store) }
    let server = try startServer(store: store, arguments: ["--compact-after", "1000000000"])
    server.write(request(1, "lists/create", "{\"name\":\"Inbox\"}"))
    _ = try answer(server, 1)
    let before = try journalBytes(server, id: 2)
    let total = 20_000
    var sent = 0
    var received = 0
    var turns = 0
    let start = nanoseconds()
    while received < total {
        if sent < total && sent - received < 128 {
            var batch: [UInt8] = []
            while sent < total && sent - received < 256 {
                batch += request(100 + sent, "items/create", "{\"list\":\"l1\",\"title\":\"Task number \(sent) with a realistic title\"}")
                sent += 1
            }
            server.write(batch)
            turns += 1
        }
        guard server.receiveBody(timeout: 60_000) != nil else { throw ProcessError("timed out after \(received) answers") }
        received += 1
    }
    let throughput = Double(total) / (Double(nanoseconds() - start) / 1e9)
    let afterCreates = try journalBytes(server, id: 3)
    var samples: [Double] = []
    let updates = 2_000
    for index in 0..<updates {
        let bytes = request(100_000 + index, "items/update", "{\"id\":\"i\(2 + index)\",\"title\":\"Renamed task \(index)\"}")
        let began = nanoseconds()
        server.write(bytes)
        guard server.receiveBody(timeout: 60_000, spinning: true) != nil else { throw ProcessError("no answer to update") }
        samples.append(Double(nanoseconds() - began) / 1000)
    }
    let afterUpdates = try journalBytes(server, id: 4)
    server.closeInput()
    _ = server.waitForExit(timeout: 60_000)
    // The server syncs once per turn; a turn reads what arrived, so records per sync ≈ answers per read.
    return (throughput, Double(total) / Double(max(1, turns)), (percentile(&samples, 0.5), percentile(&samples, 0.99)),
            Double(afterCreates - before) / Double(total), Double(afterUpdates - afterCreates) / Double(updates))
}

/// `processes` servers on one store, each pipelining 5,000 creates at once; mutations per second overall.
private func measureSharedWriters(processes: Int) throws -> Double {
    let store = makeTemporaryDirectory(prefix: "taskls-bench-shared")
    defer { removeTree(store) }
    let first = try startServer(store: store)
    first.write(request(1, "lists/create", "{\"name\":\"Shared\"}"))
    _ = try answer(first, 1)
    var servers = [first]
    for _ in 1..<processes { servers.append(try startServer(store: store)) }
    let each = 5_000
    let start = nanoseconds()
    var sent = Array(repeating: 0, count: processes)
    var received = Array(repeating: 0, count: processes)
    while received.reduce(0, +) < each * processes {
        for (index, server) in servers.enumerated() {
            if sent[index] < each && sent[index] - received[index] < 128 {
                var batch: [UInt8] = []
                while sent[index] < each && sent[index] - received[index] < 256 {
                    batch += request(10 + sent[index], "items/create", "{\"list\":\"l1\",\"title\":\"From process \(index), number \(sent[index])\"}")
                    sent[index] += 1
                }
                server.write(batch)
            }
            if received[index] < sent[index] {
                guard let body = server.receiveBody(timeout: 60_000) else { throw ProcessError("process \(index) timed out") }
                if body.count > 0 { received[index] += 1 }
            }
        }
    }
    let rate = Double(each * processes) / (Double(nanoseconds() - start) / 1e9)
    for server in servers {
        server.closeInput()
        _ = server.waitForExit(timeout: 60_000)
    }
    return rate
}

/// Process B updates an item 1,000 times, one at a time; process A has a view showing it. The time from B's
/// answer to A's `view/changed`, in microseconds.
private func measureCrossProcessDelay() throws -> (p50: Double, p99: Double) {
    let store = makeTemporaryDirectory(prefix: "taskls-bench-delay")
    defer { removeTree(store) }
    let writer = try startServer(store: store)
    writer.write(request(1, "lists/create", "{\"name\":\"Shared\"}"))
    _ = try answer(writer, 1)
    writer.write(request(2, "items/create", "{\"list\":\"l1\",\"title\":\"Watched\"}"))
    _ = try answer(writer, 2)
    let watcher = try startServer(store: store)
    watcher.write(request(1, "lists/open", "{\"list\":\"l1\"}"))
    _ = try answer(watcher, 1)
    var samples: [Double] = []
    for index in 0..<1_000 {
        writer.write(request(10 + index, "items/update", "{\"id\":\"i2\",\"title\":\"Watched \(index)\"}"))
        guard writer.receiveBody(timeout: 60_000, spinning: true) != nil else { throw ProcessError("no answer from the writer") }
        let acknowledged = nanoseconds()
        guard watcher.receiveBody(timeout: 60_000, spinning: true) != nil else { throw ProcessError("no notification in the other process") }
        samples.append(Double(nanoseconds() - acknowledged) / 1000)
    }
    for server in [writer, watcher] {
        server.closeInput()
        _ = server.waitForExit(timeout: 60_000)
    }
    return (percentile(&samples, 0.5), percentile(&samples, 0.99))
}

/// Writes a store of `count` items (as a snapshot), then times loading it in-process and through the binary.
private func measureLargeStore(items count: Int) throws
    -> (snapshot: Double, snapshotBytes: Int, load: Double, initialize: Double, pingWhileLoading: Double, ready: Double)
{
    let directory = makeTemporaryDirectory(prefix: "taskls-bench-large")
    defer { removeTree(directory) }
    let list = ListID(1)
    let positions = Position.between(nil, nil, count: count)
    let time = Timestamp(milliseconds: 1_795_000_000_000)
    var items: [Item] = []
    items.reserveCapacity(count)
    for index in 0..<count {
        items.append(Item(id: ItemID(UInt64(index) + 2), list: list, title: "Task number \(index) with a realistic title",
                          notes: "", done: index % 4 == 0, completedAt: index % 4 == 0 ? time : nil, due: nil,
                          priority: .none, tags: index % 10 == 0 ? ["work"] : [], createdAt: time, modifiedAt: time,
                          revision: 1, position: positions[index]))
    }
    let lists = [TaskList(id: list, name: "Big", color: nil, icon: nil, position: Position.initial)]
    let state = try TaskState(restoring: lists, items: items, nextIdentifier: UInt64(count) + 2, revision: 1)
    items = []
    let snapshotStart = nanoseconds()
    do {
        let (store, _) = try DurableStore.open(directory)
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: state.stored)
        _ = try store.finishCompaction(ticket)
    }
    let snapshot = Double(nanoseconds() - snapshotStart) / 1e6
    let snapshotBytes = DurableStore.bytesToRead(at: directory)
    let loadStart = nanoseconds()
    let (store, loaded) = try DurableStore.open(directory)
    let engine = Engine(state: loaded, today: Today.epoch)
    let load = Double(nanoseconds() - loadStart) / 1e6
    _ = (store, engine.state.itemCount)
    // Through the binary: initialize, a ping and a view on the big list while it loads.
    let started = nanoseconds()
    let server = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve", "--store", directory], environment: [:])
    server.write(request(1, "initialize", "{}"))
    _ = try answer(server, 1)
    let initialize = Double(nanoseconds() - started) / 1e6
    let pingStart = nanoseconds()
    server.write(request(2, "server/ping", "{}"))
    _ = try answer(server, 2)
    let ping = Double(nanoseconds() - pingStart) / 1e6
    server.write(request(3, "lists/open", "{\"list\":\"l1\",\"window\":{\"start\":0,\"end\":50}}"))
    while true {
        guard let message = server.receive(timeout: 120_000) else { throw ProcessError("the view never became ready") }
        if message["id"] == .integer(3), message["result"]?["state"] == .string("ready") { break }
        if message["method"] == .string("view/changed"), message["params"]?["state"] == .string("ready") { break }
    }
    let ready = Double(nanoseconds() - started) / 1e6
    server.closeInput()
    _ = server.waitForExit(timeout: 60_000)
    return (snapshot, snapshotBytes, load, initialize, ping, ready)
}
