// An HTTP server on 127.0.0.1 that answers each request with what the test says: for the answers real servers give
// and Radicale does not (redirects elsewhere, absolute hrefs, truncated reports, SabreDAV's error bodies).

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One request as the canned server read it.
struct CannedRequest: Sendable {
    let method: String
    let path: String
    let body: String
}

/// An answer to give.
struct CannedAnswer: Sendable {
    var status: Int
    var headers: [String: String] = [:]
    var body: String = ""
}

/// Listens on a fresh port and answers every request with `answer(request)`, one connection at a time, each
/// connection closed after its answer. Stopped by `stop()`.
final class CannedHTTPServer: Sendable {
    let port: Int
    private let descriptor: Int32

    init(answer: @escaping @Sendable (CannedRequest) -> CannedAnswer) throws {
        (port, descriptor) = try silentListener()
        let descriptor = descriptor
        let thread = Thread {
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                if let request = readRequest(connection) { write(answer(request), to: connection) }
                close(connection)
            }
        }
        thread.start()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Stops listening: the accepting thread ends.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}

/// Reads one request: its line, headers, and a body of `Content-Length` bytes.
private func readRequest(_ connection: Int32) -> CannedRequest? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    func headerEnd() -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }
    while headerEnd() == nil {
        let count = read(connection, &buffer, buffer.count)
        guard count > 0 else { return nil }
        bytes += buffer[0..<count]
    }
    let end = headerEnd()!
    let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let words = head[0].split(separator: " ")
    guard words.count >= 2 else { return nil }
    let length = head.dropFirst().compactMap { line -> Int? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
        return Int(parts[1].trimmingCharacters(in: .whitespaces))
    }.first ?? 0
    while bytes.count < end + 4 + length {
        let count = read(connection, &buffer, buffer.count)
        guard count > 0 else { break }
        bytes += buffer[0..<count]
    }
    let body = String(decoding: bytes[(end + 4)..<min(bytes.count, end + 4 + length)], as: UTF8.self)
    return CannedRequest(method: String(words[0]), path: String(words[1]), body: body)
}

private func write(_ answer: CannedAnswer, to connection: Int32) {
    var head = "HTTP/1.1 \(answer.status) Canned\r\nContent-Length: \(answer.body.utf8.count)\r\nConnection: close\r\n"
    for (name, value) in answer.headers { head += "\(name): \(value)\r\n" }
    let bytes = Array((head + "\r\n" + answer.body).utf8)
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { Glibc.write(connection, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        sent += count
    }
}
