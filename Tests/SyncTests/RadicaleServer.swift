// A real Radicale on 127.0.0.1 for one test: a fresh port, temporary storage, htpasswd users; and a small HTTP
// client (URLSession, as the sync engine will use) that speaks to it.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// One Radicale server process with its own storage and users, stopped by `stop()`.
final class RadicaleServer {
    /// The `radicale` program, or nil when it is not installed.
    static let program: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return (directories.map { $0 + "/radicale" } + ["/usr/bin/radicale"]).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether Radicale is there; says `MARKER: ran` or `MARKER: skipped (REASON)` on stderr.
    static func available(marker: String) -> Bool {
        guard program != nil else {
            FileHandle.standardError.write(Data("\(marker): skipped (radicale is not installed)\n".utf8))
            return false
        }
        FileHandle.standardError.write(Data("\(marker): ran\n".utf8))
        return true
    }

    let directory: String
    let port: Int
    /// Whether it speaks HTTPS.
    let secure: Bool
    let process = Process()
    /// `http://127.0.0.1:PORT`, or `https://…` when it speaks HTTPS.
    var base: String { (secure ? "https" : "http") + "://127.0.0.1:\(port)" }

    /// Starts Radicale with `users` (name → password, stored in plain htpasswd) and waits until it accepts
    /// connections; over HTTPS with `tls`'s certificate and key files (PEM) when given.
    init(users: [String: String], tls: (certificate: String, key: String)? = nil) throws {
        directory = makeTemporaryDirectory(prefix: "taskls-radicale")
        port = try freePort()
        secure = tls != nil
        let ssl = tls.map { "ssl = True\ncertificate = \($0.certificate)\nkey = \($0.key)\n" } ?? ""
        let htpasswd = users.map { "\($0.key):\($0.value)" }.sorted().joined(separator: "\n") + "\n"
        try htpasswd.write(toFile: directory + "/users", atomically: true, encoding: .utf8)
        let config = """
            [server]
            hosts = 127.0.0.1:\(port)
            \(ssl)[auth]
            type = htpasswd
            htpasswd_filename = \(directory)/users
            htpasswd_encryption = plain
            [storage]
            filesystem_folder = \(directory)/collections
            [logging]
            level = info
            """
        try config.write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.program ?? "radicale")
        process.arguments = ["--config", directory + "/config"]
        process.standardOutput = FileHandle.nullDevice
        let log = Pipe()
        process.standardError = log
        try process.run()
        try waitUntilReady(log.fileHandleForReading)
    }

    /// Stops the server and removes its storage. With SIGKILL: a child started from a test's worker thread inherits
    /// its blocked signals, so Radicale never sees a SIGTERM (and has nothing to save).
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        removeTree(directory)
    }

    /// Reads the server's log until it says it is ready (it logs `Radicale server ready` once it listens), then
    /// keeps reading it in the background so the server never blocks on a full pipe.
    private func waitUntilReady(_ log: FileHandle) throws {
        var text = ""
        while !text.contains("Radicale server ready") {
            let data = log.availableData
            guard !data.isEmpty else {
                process.waitUntilExit()
                throw RadicaleFailure("radicale exited with status \(process.terminationStatus) before it was ready: \(text)")
            }
            text += String(decoding: data, as: UTF8.self)
        }
        // A thread of its own: a blocking read on a shared queue would hold a worker the tests' tasks need.
        let drain = Thread {
            while !log.availableData.isEmpty {}
        }
        drain.start()
    }
}

struct RadicaleFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A socket on 127.0.0.1 that takes connections (the kernel's backlog) and never answers: a server that hangs.
/// Returns its port and its descriptor, to close.
func silentListener() throws -> (port: Int, descriptor: Int32) {
    let (port, descriptor) = try boundSocket()
    guard listen(descriptor, 8) == 0 else {
        close(descriptor)
        throw RadicaleFailure("listen: \(errno)")
    }
    return (port, descriptor)
}

/// A port nothing listens on now: bound to 0, read back, released.
private func freePort() throws -> Int {
    let (port, descriptor) = try boundSocket()
    close(descriptor)
    return port
}

/// A TCP socket bound to a fresh port of 127.0.0.1: the port, and the descriptor to close.
private func boundSocket() throws -> (port: Int, descriptor: Int32) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RadicaleFailure("socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else {
        close(descriptor)
        throw RadicaleFailure("bind: \(errno)")
    }
    return (Int(UInt16(bigEndian: address.sin_port)), descriptor)
}

/// An HTTP answer.
struct HTTPAnswer {
    let status: Int
    let headers: [String: String]
    let body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Sends one request with basic authentication.
func send(_ method: String, _ url: String, user: String, password: String, headers: [String: String] = [:],
          body: String? = nil) async throws -> HTTPAnswer {
    guard let address = URL(string: url) else { throw RadicaleFailure("not a URL: \(url)") }
    var request = URLRequest(url: address)
    request.httpMethod = method
    request.setValue("Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body {
        request.httpBody = Data(body.utf8)
        if headers["Content-Type"] == nil { request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type") }
    }
    // URLSession on Linux never finishes a request answered 401 unless a delegate answers the challenge: this one
    // refuses it, and the refusal is the 401.
    let refuser = ChallengeRefuser()
    let session = URLSession(configuration: .ephemeral, delegate: refuser, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    let data: Data
    let response: URLResponse
    do {
        (data, response) = try await session.data(for: request)
    } catch where refuser.challenged {
        return HTTPAnswer(status: 401, headers: [:], body: Data())
    }
    guard let http = response as? HTTPURLResponse else { throw RadicaleFailure("not an HTTP answer") }
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { fields[name] = value }
    }
    return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
}

/// Refuses every authentication challenge (the credentials went with the request) and remembers that one came.
private final class ChallengeRefuser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var wasChallenged = false

    var challenged: Bool { lock.withLock { wasChallenged } }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        lock.withLock { wasChallenged = true }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
