// FaultProxy: an HTTP/1.1 proxy on 127.0.0.1 between the sync client and Radicale, with faults switched on and off
// while it runs — the server down, slow answers, 5xx, 412 storms, connections dropped mid-answer, a sync token the
// server suddenly refuses — to prove that each fault ends in a clear state and that a later sync mends it.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Wire

/// A fault the proxy plays until another is set.
enum ProxyFault: Sendable, Hashable {
    /// Nothing listens (connections are refused) and the connections open are closed: the server is down.
    case down
    /// Every answer is held back `milliseconds` before it is sent; the request reaches the server at once.
    case slow(milliseconds: Int)
    /// Requests are answered `code` (a text/plain body) without reaching the server: every one (`only` nil), or only
    /// the `only`th from when the fault was set (1: the next).
    case status(Int, only: Int?)
    /// The next `count` PUTs are answered 412 without reaching the server; then PUTs pass again.
    case preconditionStorm(count: Int)
    /// The answer is cut: the request reaches the server, and of its answer the head and half the body (nothing,
    /// when it has no body) are sent before the connection is closed: every answer, or only the `only`th from when
    /// the fault was set.
    case dropMidAnswer(only: Int?)
    /// Every sync-collection REPORT that carries a token carries instead one the server never gave, so the server
    /// refuses it (403 `valid-sync-token`).
    case invalidToken
}

/// Listens on a fresh port of 127.0.0.1 and forwards each request to `127.0.0.1:upstream`, on a connection of its
/// own, playing the current fault. Client connections are kept alive (a thread each); every answer goes back as
/// HTTP/1.1 with a `Content-Length`, whatever framing the server used. Stopped by `stop()`.
final class FaultProxy: Sendable {
    let port: Int
    let upstream: Int
    private let state = Locked(ProxyState())

    /// Starts listening.
    init(upstream: Int) throws {
        self.upstream = upstream
        let (port, listener) = try listeningSocket(port: 0)
        self.port = port
        state.withLock { $0.listener = listener }
        startAccepting(listener)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// The fault played now.
    var fault: ProxyFault? { state.withLock { $0.fault } }

    /// Requests the faults changed so far (answered, delayed, cut or rewritten), and connections closed by `.down`.
    var hits: Int { state.withLock { $0.hits } }

    /// Plays `fault` from now on (nil: none). Leaving `.down` listens again on the same port.
    func set(_ fault: ProxyFault?) throws {
        let listenAgain = try state.withLock { state throws -> Int32? in
            let wasDown = state.fault == .down
            state.fault = fault
            state.requests = 0
            if fault == .down, !wasDown {
                shutdown(state.listener, Int32(SHUT_RDWR))
                close(state.listener)
                state.listener = -1
                state.hits += state.connections.count
                for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
                return nil
            }
            guard wasDown, fault != .down, !state.stopped else { return nil }
            let listener = try listeningSocket(port: port).descriptor
            state.listener = listener
            return listener
        }
        if let listenAgain { startAccepting(listenAgain) }
    }

    /// Stops listening and closes every connection.
    func stop() {
        state.withLock { state in
            state.stopped = true
            if state.listener >= 0 {
                shutdown(state.listener, Int32(SHUT_RDWR))
                close(state.listener)
                state.listener = -1
            }
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func startAccepting(_ listener: Int32) {
        Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                let open = state.withLock { state in
                    guard !state.stopped, state.fault != .down else { return false }
                    state.connections.insert(connection)
                    return true
                }
                guard open else {
                    close(connection)
                    continue
                }
                Thread { [self] in serve(connection) }.start()
            }
        }.start()
    }

    /// Holds an answer back (a slow server): waits for the client to give up and close the connection, for at most
    /// `milliseconds`. True when the client is still there to be answered.
    private func holdsBack(_ connection: Int32, milliseconds: Int) -> Bool {
        var watched = pollfd(fd: connection, events: Int16(POLLIN | POLLHUP), revents: 0)
        guard poll(&watched, 1, Int32(milliseconds)) > 0 else { return true }
        // Readable: the client closed it (a request of its own would only come after this answer).
        var byte: UInt8 = 0
        return recv(connection, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0
    }

    /// Answers the requests of one client connection in turn until it closes (or a fault closes it).
    private func serve(_ connection: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(connection) }
            close(connection)
        }
        let reader = SocketReader(connection)
        while let request = reader.request(continuing: { send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection) }) {
            let action = state.withLock { $0.action(for: request) }
            var answer: HTTPMessage
            switch action {
            case .answer(let code):
                answer = HTTPMessage(start: "HTTP/1.1 \(code) Fault", headers: [("Content-Type", "text/plain")],
                                     body: Array("the fault proxy answered \(code)".utf8))
            case .forward(let delay, let cut, let bogusToken):
                guard let forwarded = forward(bogusToken ? request.withBogusSyncToken() : request) else { return }
                answer = forwarded
                if delay > 0 && !holdsBack(connection, milliseconds: delay) { return }
                if cut {
                    // Half the body; of an answer with no body, nothing. Never half a head: URLSession on Linux
                    // (swift-corelibs-foundation 6.3) stops the process when a connection closes inside the head
                    // ("Transfer completed, but there's no response", swift-corelibs-foundation#5285).
                    let bytes = answer.bytes(closing: true)
                    send(Array(bytes[0..<(bytes.count - (answer.body.isEmpty ? bytes.count : answer.body.count / 2))]), to: connection)
                    return
                }
            }
            let closes = request.header("connection")?.lowercased() == "close"
            guard send(answer.bytes(closing: closes), to: connection), !closes else { return }
        }
    }

    /// Sends `request` to the server on a new connection and reads its whole answer; nil when the server cannot be
    /// reached or its answer cannot be read.
    private func forward(_ request: HTTPMessage) -> HTTPMessage? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = loopback(port: upstream)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected, send(request.bytes(closing: true), to: descriptor) else { return nil }
        return SocketReader(descriptor).answer(toHead: request.method == "HEAD")
    }
}

/// What the proxy does with one request.
private enum ProxyAction {
    case answer(Int)
    /// Forwards it; holds the answer back `delay` ms, cuts it, or sends a sync token the server never gave.
    case forward(delay: Int, cut: Bool, bogusToken: Bool)
}

private struct ProxyState {
    var fault: ProxyFault?
    /// Requests since the fault was set.
    var requests = 0
    var hits = 0
    var listener: Int32 = -1
    var connections: Set<Int32> = []
    var stopped = false

    /// What the current fault does to `request`, counted.
    mutating func action(for request: HTTPMessage) -> ProxyAction {
        requests += 1
        let action: ProxyAction
        var hit = true
        switch fault {
        case .status(let code, let only) where only == nil || only == requests:
            action = .answer(code)
        case .preconditionStorm(let count) where count > 0 && request.method == "PUT":
            fault = .preconditionStorm(count: count - 1)
            action = .answer(412)
        case .slow(let milliseconds):
            action = .forward(delay: milliseconds, cut: false, bogusToken: false)
        case .dropMidAnswer(let only) where only == nil || only == requests:
            action = .forward(delay: 0, cut: true, bogusToken: false)
        case .invalidToken where request.carriesSyncToken:
            action = .forward(delay: 0, cut: false, bogusToken: true)
        default:
            action = .forward(delay: 0, cut: false, bogusToken: false)
            hit = false
        }
        if hit { hits += 1 }
        return action
    }
}

/// A request or an answer: its first line, its headers in order, its whole body.
struct HTTPMessage: Sendable {
    var start: String
    var headers: [(String, String)]
    var body: [UInt8]

    var method: String { String(start.prefix { $0 != " " }) }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name }?.1
    }

    /// The message framed with a `Content-Length` (hop-by-hop headers dropped), as HTTP/1.1 for an answer.
    func bytes(closing: Bool) -> [UInt8] {
        let hopByHop: Set<String> = ["connection", "keep-alive", "transfer-encoding", "content-length", "expect", "proxy-connection"]
        var head = start.hasPrefix("HTTP/") ? "HTTP/1.1" + start.drop { $0 != " " } : start
        head += "\r\n"
        for (name, value) in headers where !hopByHop.contains(name.lowercased()) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        if closing { head += "Connection: close\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Whether it is a sync-collection REPORT from a token (not from scratch).
    var carriesSyncToken: Bool { method == "REPORT" && syncTokenRange != nil }

    /// The request with its sync token replaced by one the server never gave.
    func withBogusSyncToken() -> HTTPMessage {
        guard let range = syncTokenRange else { return self }
        var copy = self
        copy.body.replaceSubrange(range, with: Array("http://radicale.org/ns/sync/0000000000000000000000000000000000000000".utf8))
        return copy
    }

    /// Where the text of a non-empty `sync-token` element of the body is.
    private var syncTokenRange: Range<Int>? {
        let open = Array("sync-token>".utf8)
        guard let start = body.firstRange(of: open)?.upperBound,
              let end = body[start...].firstIndex(of: UInt8(ascii: "<")), end > start else { return nil }
        return start..<end
    }
}

/// Reads HTTP messages from a socket, buffered.
private final class SocketReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// The next request; nil when the connection closes first or the request cannot be read. `continuing` is called
    /// before the body of a request that expects `100-continue`.
    func request(continuing: () -> Void) -> HTTPMessage? {
        guard let (start, headers) = head() else { return nil }
        var message = HTTPMessage(start: start, headers: headers, body: [])
        if message.header("expect")?.lowercased() == "100-continue" { continuing() }
        guard let body = body(of: message, untilClose: false) else { return nil }
        message.body = body
        return message
    }

    /// The whole answer to a request (`toHead`: a HEAD, which has no body).
    func answer(toHead: Bool) -> HTTPMessage? {
        guard var (start, headers) = head() else { return nil }
        while start.split(separator: " ").dropFirst().first?.hasPrefix("1") == true {
            guard let next = head() else { return nil }
            (start, headers) = next
        }
        var message = HTTPMessage(start: start, headers: headers, body: [])
        let code = Int(start.split(separator: " ").dropFirst().first ?? "") ?? 0
        if toHead || code == 204 || code == 304 { return message }
        guard let body = body(of: message, untilClose: true) else { return nil }
        message.body = body
        return message
    }

    private func head() -> (String, [(String, String)])? {
        let end = Array("\r\n\r\n".utf8)
        var found = buffer.firstRange(of: end)
        while found == nil {
            guard fill() else { return nil }
            found = buffer.firstRange(of: end)
        }
        let range = found!
        let lines = String(decoding: buffer[..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeSubrange(..<range.upperBound)
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (lines[0], headers)
    }

    /// The body as the headers frame it: `Content-Length`, chunked, or (`untilClose`, an answer) up to the close.
    private func body(of message: HTTPMessage, untilClose: Bool) -> [UInt8]? {
        if message.header("transfer-encoding")?.lowercased().contains("chunked") == true { return chunked() }
        if let length = message.header("content-length").flatMap({ Int($0) }) { return take(length) }
        guard untilClose else { return [] }
        while fill() {}
        defer { buffer = [] }
        return buffer
    }

    private func chunked() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            guard let sizeLine = line(), let size = Int(sizeLine.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces), radix: 16) else {
                return nil
            }
            if size == 0 {
                while let trailer = line(), !trailer.isEmpty {}
                return body
            }
            guard let chunk = take(size), line() != nil else { return nil }
            body += chunk
        }
    }

    private func line() -> String? {
        let end = Array("\r\n".utf8)
        var found = buffer.firstRange(of: end)
        while found == nil {
            guard fill() else { return nil }
            found = buffer.firstRange(of: end)
        }
        let text = String(decoding: buffer[..<found!.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<found!.upperBound)
        return text
    }

    private func take(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    /// Reads what has come; false at the end of the stream or on an error.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = read(descriptor, &chunk, chunk.count)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
}

/// Writes all of `bytes`; false when the connection is gone (no SIGPIPE).
@discardableResult
private func send(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { return false }
        sent += count
    }
    return true
}

private func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// A socket listening on `port` of 127.0.0.1 (0: a fresh one), with `SO_REUSEADDR` so the port can be listened on
/// again while closed connections linger: the port and the descriptor.
private func listeningSocket(port: Int) throws -> (port: Int, descriptor: Int32) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RadicaleFailure("socket: \(errno)") }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = loopback(port: port)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound, listen(descriptor, 16) == 0 else {
        let error = errno
        close(descriptor)
        throw RadicaleFailure("listen on port \(port): \(error)")
    }
    return (Int(UInt16(bigEndian: address.sin_port)), descriptor)
}
