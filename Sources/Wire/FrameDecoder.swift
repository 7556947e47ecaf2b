/// LSP base-protocol framing, incoming side: splits a byte stream into message bodies.

#if canImport(Glibc)
import Glibc
#endif

/// What the decoder found next in the stream.
public enum FrameEvent: Sendable, Equatable {
    /// One complete message body.
    case message([UInt8])
    /// A broken frame. The decoder has already skipped it and resynchronized; the error is
    /// answered with id `null` (the id is unknowable without a body).
    case error(ResponseError)
}

/// Splits an LSP byte stream (`Content-Length`, optional `Content-Type`, CRLF or bare LF,
/// a blank line, then the body) into message bodies.
///
/// Feed bytes in any chunks with `append`, then call `next` until it returns `nil`.
/// Nothing in the stream can make it crash or grow without bound: a header block is capped at
/// `maximumHeaderBytes`, a body at `maximumContentLength` (a larger one is skipped as it
/// streams by, never buffered), and after a broken header whose body length is unknown the
/// decoder discards input up to the next `Content-Length` (bodies do not end with a newline,
/// so the next header can start anywhere).
public struct FrameDecoder: Sendable {
    /// The largest body accepted; a larger declared length is answered with an error and skipped.
    public let maximumContentLength: Int
    /// The largest header block accepted, terminator included.
    public let maximumHeaderBytes: Int

    private enum State: Sendable, Equatable {
        case header
        case body(length: Int)
        case skipBody(remaining: Int)
        case discardHeader
        case resynchronize
    }

    private var state = State.header
    private var buffer: [UInt8] = []
    private var start = 0
    /// How far the header scan has already looked (relative to `start`), so a slow trickle of
    /// header bytes is not rescanned from the beginning each time.
    private var scanned = 0

    /// A decoder accepting bodies up to `maximumContentLength` and header blocks up to `maximumHeaderBytes`.
    public init(maximumContentLength: Int = 64 << 20, maximumHeaderBytes: Int = 8192) {
        self.maximumContentLength = maximumContentLength
        self.maximumHeaderBytes = maximumHeaderBytes
    }

    /// Bytes received and not yet consumed.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends bytes read from the stream.
    /// - Complexity: O(bytes.count), amortized; bytes being skipped are dropped without copying.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes[...]
        if case .skipBody(let remaining) = state, buffer.count == start {
            let dropped = min(remaining, bytes.count)
            bytes = bytes.dropFirst(dropped)
            state = remaining == dropped ? .header : .skipBody(remaining: remaining - dropped)
        }
        if bytes.isEmpty { return }
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes read from the stream.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete message or framing error, or `nil` when more input is needed.
    /// - Complexity: O(bytes consumed), amortized.
    public mutating func next() -> FrameEvent? {
        nextEvent(message: { FrameEvent.message(Array($0)) }, error: { FrameEvent.error($0) })
    }

    /// The next complete message decoded straight from the buffered bytes (no copy of its body), a framing
    /// error or a body that is not a message as `.malformed`, or `nil` when more input is needed.
    /// - Complexity: O(bytes consumed), amortized.
    public mutating func nextIncoming() -> Incoming? {
        nextEvent(
            message: { body in
                switch Message.decode(body) {
                case .success(let message): Incoming.message(message)
                case .failure(let failure): Incoming.malformed(failure)
                }
            },
            error: { Incoming.malformed(MessageDecodingFailure(id: nil, error: $0, isResponse: false)) })
    }

    /// The state machine behind `next` and `nextIncoming`: `message` is given each complete body in place,
    /// `error` each framing error.
    private mutating func nextEvent<Event>(
        message: (UnsafeRawBufferPointer) -> Event, error: (ResponseError) -> Event
    ) -> Event? {
        while true {
            switch state {
            case .header:
                if let (headerBytes, length) = plainHeader() {
                    consume(headerBytes)
                    if length > maximumContentLength {
                        state = .skipBody(remaining: length)
                        return error(ResponseError(
                            .parseError,
                            "Content-Length \(length) exceeds the limit of \(maximumContentLength) bytes; message skipped"))
                    }
                    state = .body(length: length)
                    continue
                }
                guard let headerEnd = findHeaderEnd() else {
                    if bufferedByteCount > maximumHeaderBytes {
                        state = .discardHeader
                        return error(ResponseError(.parseError, "header block exceeds \(maximumHeaderBytes) bytes; message skipped"))
                    }
                    return nil
                }
                if headerEnd.total > maximumHeaderBytes {
                    // The whole block is here: when it names one body length, skip exactly that
                    // body, so nothing inside it can pass for a message.
                    let known: Int? = switch parseHeader(count: headerEnd.headerBytes) {
                    case .success(let length): length
                    case .failure(let failure): failure.skip
                    }
                    consume(headerEnd.total)
                    state = known.map { .skipBody(remaining: $0) } ?? .resynchronize
                    return error(ResponseError(.parseError, "header block exceeds \(maximumHeaderBytes) bytes; message skipped"))
                }
                let outcome = parseHeader(count: headerEnd.headerBytes)
                switch outcome {
                case .success(let length):
                    consume(headerEnd.total)
                    if length > maximumContentLength {
                        state = .skipBody(remaining: length)
                        return error(ResponseError(
                            .parseError,
                            "Content-Length \(length) exceeds the limit of \(maximumContentLength) bytes; message skipped"))
                    }
                    state = .body(length: length)
                case .failure(let failure):
                    if let length = failure.skip {
                        consume(headerEnd.total)
                        state = .skipBody(remaining: length)
                    } else {
                        consume(failure.resume)
                        state = .resynchronize
                    }
                    return error(failure.error)
                }
            case .body(let length):
                guard bufferedByteCount >= length else { return nil }
                let first = start
                let event = buffer.withUnsafeBytes { message(UnsafeRawBufferPointer(rebasing: $0[first..<first + length])) }
                consume(length)
                state = .header
                return event
            case .skipBody(let remaining):
                let dropped = min(remaining, bufferedByteCount)
                consume(dropped)
                if dropped < remaining {
                    state = .skipBody(remaining: remaining - dropped)
                    return nil
                }
                state = .header
            case .discardHeader:
                guard let headerEnd = findHeaderEnd() else {
                    // Keep the last two bytes: they may begin the terminator.
                    let keep = min(bufferedByteCount, 2)
                    consume(bufferedByteCount - keep)
                    scanned = 0
                    return nil
                }
                consume(headerEnd.total)
                state = .resynchronize
            case .resynchronize:
                guard resynchronize() else { return nil }
                state = .header
            }
        }
    }

    /// Called at end of input: describes a message the stream ended inside of, if any.
    public func unfinishedMessage() -> String? {
        switch state {
        case .body(let length):
            return "input ended inside a message body: \(bufferedByteCount) of \(length) bytes received"
        case .skipBody(let remaining):
            return "input ended while skipping an oversized body; \(remaining) bytes never arrived"
        case .header, .discardHeader, .resynchronize:
            let pending = buffer[start...].contains { $0 != 0x0D && $0 != 0x0A && $0 != 0x20 }
            return pending ? "input ended inside a message header (\(bufferedByteCount) bytes)" : nil
        }
    }

    private mutating func consume(_ count: Int) {
        start += count
        scanned = 0
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.count <= 1 << 20)
            start = 0
        }
    }

    /// The header block's length and the body's when the buffered input starts with the header block almost every client sends:
    /// exactly `Content-Length: ` and 1 to 18 digits, then `\r\n\r\n`; `nil` for anything else (which the
    /// general parser then reads, whatever it is).
    /// - Complexity: O(1): at most 38 bytes are looked at.
    private func plainHeader() -> (headerBytes: Int, length: Int)? {
        let prefix: StaticString = "Content-Length: "
        let available = buffer.count - start
        guard available >= 16 + 1 + 4 else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> (headerBytes: Int, length: Int)? in
            let head = bytes.baseAddress.unsafelyUnwrapped + start
            guard memcmp(head, prefix.utf8Start, 16) == 0 else { return nil }
            var index = 16
            var length = 0
            while index < available && index < 16 + 18, head[index] &- UInt8(ascii: "0") < 10 {
                length = length &* 10 &+ Int(head[index] &- UInt8(ascii: "0"))
                index += 1
            }
            guard index > 16, index + 4 <= available, head[index] == 0x0D, head[index + 1] == 0x0A,
                head[index + 2] == 0x0D, head[index + 3] == 0x0A
            else { return nil }
            return (headerBytes: index + 4, length: length)
        }
    }

    /// Finds the blank line that ends the header block: `\n` followed by `\r\n` or `\n`.
    /// Returns the header's length without the blank line and the length with it.
    private mutating func findHeaderEnd() -> (headerBytes: Int, total: Int)? {
        let end = buffer.count
        var index = start + max(0, scanned - 2)
        while index < end {
            if buffer[index] == 0x0A {
                if index + 1 < end && buffer[index + 1] == 0x0A {
                    return (index + 1 - start, index + 2 - start)
                }
                if index + 2 < end && buffer[index + 1] == 0x0D && buffer[index + 2] == 0x0A {
                    return (index + 1 - start, index + 3 - start)
                }
            }
            index += 1
        }
        scanned = end - start
        return nil
    }

    private struct HeaderFailure: Error {
        var error: ResponseError
        /// The body length to skip when it is known, so the next message is found exactly.
        var skip: Int?
        /// When the length is unknown, where in the block to look again for `Content-Length`:
        /// past the last `Content-Length` line, or at the second byte when there is none, since
        /// the next message's header may be glued onto a garbage line (the tail of a body that
        /// was longer than its declared length).
        var resume: Int
    }

    /// Parses the header lines in `buffer[start..<start + count]`.
    private func parseHeader(count: Int) -> Result<Int, HeaderFailure> {
        var lengths: [Int] = []
        var problem: String?
        var resume = 1
        var lineStart = start
        let end = start + count
        while lineStart < end {
            var lineEnd = lineStart
            while lineEnd < end && buffer[lineEnd] != 0x0A { lineEnd += 1 }
            var contentEnd = lineEnd
            if contentEnd > lineStart && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let line = buffer[lineStart..<contentEnd]
            lineStart = lineEnd + 1
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: 0x3A) else {
                problem = problem ?? "malformed header line \(quoted(line)): expected 'Name: value'"
                continue
            }
            let name = String(decoding: trimmed(line[line.startIndex..<colon]), as: UTF8.self)
            let value = trimmed(line[(colon + 1)...])
            switch name.lowercased() {
            case "content-length":
                resume = lineStart - start
                guard let length = decimal(value) else {
                    // A length past `Int.max` can never arrive: skipping it would stop serving for good.
                    let reason = isDigits(value) ? "does not fit in 64 bits" : "is not a non-negative integer"
                    problem = problem ?? "Content-Length \(quoted(value)) \(reason)"
                    continue
                }
                lengths.append(length)
            case "content-type":
                if let charset = charset(in: String(decoding: value, as: UTF8.self)),
                    charset != "utf-8" && charset != "utf8"
                {
                    problem = problem ?? "Content-Type charset \(charset) is not supported; only utf-8"
                }
            default:
                continue
            }
        }
        let knownLength = lengths.count == 1 || (lengths.count > 1 && Set(lengths).count == 1) ? lengths.first : nil
        if lengths.count > 1 {
            return .failure(HeaderFailure(
                error: ResponseError(.parseError, "Content-Length appears \(lengths.count) times; message skipped"),
                skip: knownLength, resume: resume))
        }
        if let problem {
            return .failure(HeaderFailure(
                error: ResponseError(.parseError, problem + "; message skipped"), skip: knownLength, resume: resume))
        }
        guard let length = knownLength else {
            return .failure(HeaderFailure(
                error: ResponseError(.parseError, "Content-Length header is missing; message skipped"), skip: nil, resume: resume))
        }
        return .success(length)
    }

    /// Drops input up to the next `Content-Length` (any case). Returns whether it was found.
    private mutating func resynchronize() -> Bool {
        let pattern = Array("content-length".utf8)
        var index = start
        let end = buffer.count
        while index < end {
            if buffer[index] | 0x20 == pattern[0] {
                var matched = 0
                while matched < pattern.count && index + matched < end
                    && (buffer[index + matched] | 0x20) == pattern[matched]
                {
                    matched += 1
                }
                if matched == pattern.count {
                    consume(index - start)
                    return true
                }
                if index + matched == end {
                    consume(index - start)
                    return false
                }
            }
            index += 1
        }
        consume(end - start)
        return false
    }
}

private func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var slice = bytes
    while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
    while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
    return slice
}

/// A decimal made of digits only that fits in an `Int`, or `nil`.
private func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard isDigits(bytes) else { return nil }
    var value = 0
    for byte in bytes {
        let (product, overflow) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = product.addingReportingOverflow(Int(byte - 0x30))
        if overflow || overflow2 { return nil }
        value = sum
    }
    return value
}

/// Whether `bytes` is one or more ASCII digits.
private func isDigits(_ bytes: ArraySlice<UInt8>) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
}

/// The lowercased `charset` parameter of a media type, if present.
private func charset(in contentType: String) -> String? {
    for parameter in contentType.split(separator: ";").dropFirst() {
        let parts = parameter.split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0].trimmingSpaces.lowercased() == "charset" {
            return String(parts[1].trimmingSpaces.lowercased().filter { $0 != "\"" })
        }
    }
    return nil
}

private func quoted(_ bytes: ArraySlice<UInt8>) -> String {
    let text = String(decoding: bytes.prefix(60), as: UTF8.self)
    return "'" + text + (bytes.count > 60 ? "…" : "") + "'"
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while result.first == " " || result.first == "\t" { result = result.dropFirst() }
        while result.last == " " || result.last == "\t" { result = result.dropLast() }
        return result
    }
}
