/// The wire benchmark: pipelined throughput and ping-pong latency through the real binary over
/// pipes, and the cost of decoding and encoding typical messages in-process.

#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Transcript
import Wire

func runWireBenchmark() -> String {
    var rows: [[String]] = []
    do {
        let (throughput, latency, sleeping) = try measureThroughputAndLatency()
        rows.append(["pipelined server/ping (200,000 requests)", format(throughput, 0) + " req/s", "target >= 150,000 req/s"])
        rows.append(["ping-pong p50", format(latency.p50, 1) + " µs", "target < 25 µs"])
        rows.append(["ping-pong p99", format(latency.p99, 1) + " µs", ""])
        rows.append(["ping-pong p50, client asleep in poll", format(sleeping.p50, 1) + " µs", "its own wake-up included"])
        rows.append(["ping-pong p99, client asleep in poll", format(sleeping.p99, 1) + " µs", ""])
    } catch {
        rows.append(["through the binary", "failed: \(error)", "build it: swift build -c release"])
    }
    let request = Array(#"{"jsonrpc":"2.0","id":1234,"method":"items/update","params":{"id":"i7f3a","patch":{"title":"Call the dentist about Tuesday","priority":"high","due":"2026-11-24","tags":["health","phone"]}}}"#.utf8)
    let requestCost = measureRoundTrip(request, iterations: 200_000)
    rows.append(["decode + encode a \(request.count)-byte request", format(requestCost, 2) + " µs", ""])
    let window = windowMessage(rows: 50)
    let windowCost = measureRoundTrip(window, iterations: 5_000)
    rows.append(["decode + encode a \(window.count)-byte 50-row window, generic JSON tree", format(windowCost, 1) + " µs", ""])
    let typed = typedWindowMessage(typedWindowChange(rows: 50))
    let typedCost = measureTypedRoundTrip(typed, iterations: 5_000)
    rows.append(["decode + encode a \(typed.count)-byte 50-row view/changed, typed", format(typedCost, 1) + " µs", "target ≤ 15 µs"])
    return table("wire (one run; the machine is noisy, compare ratios)", ["measure", "value", "note"], rows)
}

/// Pipelines 200,000 pings with up to 512 in flight, then times 20,000 sequential round trips.
private func measureThroughputAndLatency() throws -> (Double, (p50: Double, p99: Double), (p50: Double, p99: Double)) {
    let server = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve"], environment: ["TASKLS_STORE": makeTemporaryDirectory(prefix: "taskls-bench")])
    try initializeServer(server)
    let total = 200_000
    let throughput = try pipelinedPingRate(server, total: total)
    // Round trips with this process spinning for the answer (the server's latency alone), then
    // sleeping in poll(2) for it (what a client that blocks sees, its own wake-up included).
    var latencies: [(p50: Double, p99: Double)] = []
    for spinning in [true, false] {
        var samples: [Double] = []
        for index in 0..<20_000 {
            let bytes = pingFrame(id: total + index + 1 + (spinning ? 0 : 20_000))
            let before = nanoseconds()
            server.write(bytes)
            guard server.receiveBody(timeout: 10_000, spinning: spinning) != nil else { throw ProcessError("no answer to ping") }
            samples.append(Double(nanoseconds() - before) / 1000)
        }
        latencies.append((percentile(&samples, 0.5), percentile(&samples, 0.99)))
    }
    server.closeInput()
    _ = server.waitForExit(timeout: 10_000)
    return (throughput, latencies[0], latencies[1])
}

/// Sends `initialize` to a fresh server (or echo loop) and waits for its answer.
func initializeServer(_ server: ServerProcess) throws {
    server.send(["jsonrpc": "2.0", "id": 0, "method": "initialize", "params": [:]])
    guard server.receiveBody(timeout: 10_000) != nil else { throw ProcessError("no answer to initialize") }
}

/// One framed `server/ping` request with id `id`.
func pingFrame(id: Int) -> [UInt8] {
    let body = "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"server/ping\"}"
    return Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
}

/// Requests per second answered when `total` pings are pipelined to `server` with up to `window` in flight
/// (batches written whenever half the window has been answered). The same client code drives the taskls
/// server and the echo ceiling (`taskls-bench machine`).
func pipelinedPingRate(_ server: ServerProcess, total: Int, window: Int = 512) throws -> Double {
    var sent = 0
    var received = 0
    let start = nanoseconds()
    while received < total {
        if sent < total && sent - received < window / 2 {
            var batch: [UInt8] = []
            while sent < total && sent - received < window {
                batch += pingFrame(id: sent + 1)
                sent += 1
            }
            server.write(batch)
        }
        guard server.receiveBody(timeout: 10_000) != nil else { throw ProcessError("timed out after \(received) answers") }
        received += 1
    }
    return Double(total) / (Double(nanoseconds() - start) / 1e9)
}

/// Microseconds to parse `bytes` as a message and serialize it again, averaged.
func measureRoundTrip(_ bytes: [UInt8], iterations: Int) -> Double {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 2)
    var checksum = 0
    let start = nanoseconds()
    for _ in 0..<iterations {
        let message = bytes.withUnsafeBytes { Message.decode($0) }
        guard case .success(let decoded) = message else { return .nan }
        output.removeAll(keepingCapacity: true)
        JSONSerializer.write(decoded.json, into: &output)
        checksum &+= output.count
    }
    let elapsed = Double(nanoseconds() - start) / 1000 / Double(iterations)
    return checksum > 0 ? elapsed : .nan
}

/// A realistic `view/changed`-sized message: a window of `rows` item rows.
func windowMessage(rows count: Int) -> [UInt8] {
    var rows: [JSON] = []
    for index in 0..<count {
        rows.append([
            "kind": "item", "id": .string("i\(index + 1000)"), "list": "l3",
            "title": .string("Task number \(index) with a realistic title"), "done": .bool(index % 3 == 0),
            "due": index % 2 == 0 ? "2026-11-24" : nil, "priority": "medium", "tags": ["work"], "revision": .integer(Int64(index)),
        ])
    }
    let message: JSON = [
        "jsonrpc": "2.0", "method": "view/changed",
        "params": ["view": "v1", "version": 7, "count": 100000, "window": ["start": 0, "end": 50], "state": "ready", "ops": [["op": "reset", "rows": .array(rows)]]],
    ]
    return message.bytes
}
