/// `taskls-bench machine-probe echo`: the ceiling for pipelined requests on a pipe. It answers every LSP-framed
/// request on stdin with `{"jsonrpc":"2.0","id":N,"result":null}` (its id copied), the way a C loop would:
/// raw read(2) into one fixed buffer, no allocation per message, one write(2) of all the answers to what one
/// read(2) brought.

#if canImport(Glibc)
import Glibc
#endif

/// Runs the echo loop until stdin ends; returns the exit status (1 when a frame does not fit the buffer or its
/// header has no Content-Length).
/// - Complexity: O(bytes read); no allocation after the two buffers.
func runEchoProbe() -> Int32 {
    let capacity = 1 << 16
    let input = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    let outputCapacity = 1 << 17
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: outputCapacity)
    defer {
        input.deallocate()
        output.deallocate()
    }
    var filled = 0
    while true {
        let count = read(0, input + filled, capacity - filled)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return filled == 0 ? 0 : 1 }
        filled += count
        var cursor = 0
        var written = 0
        while let frame = nextFrame(input, from: cursor, to: filled) {
            guard frame.bodyEnd >= 0 else { return 1 }
            // An answer is at most 100 bytes.
            if written + 100 > outputCapacity {
                if !writeAll(output, written) { return 1 }
                written = 0
            }
            written += answer(output + written, body: input + frame.bodyStart, count: frame.bodyEnd - frame.bodyStart)
            cursor = frame.bodyEnd
        }
        if !writeAll(output, written) { return 1 }
        if cursor < filled { memmove(input, input + cursor, filled - cursor) }
        filled -= cursor
        if filled == capacity { return 1 }
    }
}

/// The body of the frame that starts at `start`, when all of it is in `buffer[start..<end]`; nil when it is not
/// yet; `bodyEnd` -1 when the header has no Content-Length.
private func nextFrame(_ buffer: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int) -> (bodyStart: Int, bodyEnd: Int)? {
    var index = start
    var line = start
    var length = -1
    // A header line is taken for Content-Length by its first byte and its name's length (14), as a C loop that
    // trusts its client would; then the digits after the colon.
    while index + 3 < end {
        if buffer[index] == 13 && buffer[index + 1] == 10 {
            if buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                guard length >= 0 else { return (0, -1) }
                let bodyStart = index + 4
                return bodyStart + length <= end ? (bodyStart, bodyStart + length) : nil
            }
            line = index + 2
        }
        if buffer[index] == UInt8(ascii: ":") && index - line == 14 && buffer[line] == UInt8(ascii: "C") {
            var digit = index + 1
            while digit < end && buffer[digit] == 32 { digit += 1 }
            length = 0
            while digit < end && buffer[digit] >= 48 && buffer[digit] <= 57 {
                length = length * 10 + Int(buffer[digit] - 48)
                digit += 1
            }
            index = digit
            continue
        }
        index += 1
    }
    return nil
}

/// Writes the framed answer to the request `body` at `output`; returns its length (0 for a notification).
private func answer(_ output: UnsafeMutablePointer<UInt8>, body: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
    // The id's token: after `"id":`, a number or a string (copied as it is).
    var index = 0
    var idStart = -1
    while index + 5 <= count {
        if body[index] == 34 && body[index + 1] == 105 && body[index + 2] == 100 && body[index + 3] == 34 && body[index + 4] == 58 {
            idStart = index + 5
            break
        }
        index += 1
    }
    guard idStart >= 0 else { return 0 }
    var idEnd = idStart
    if idEnd < count && body[idEnd] == 34 {
        idEnd += 1
        while idEnd < count && body[idEnd] != 34 { idEnd += body[idEnd] == 92 ? 2 : 1 }
        idEnd = min(count, idEnd + 1)
    } else {
        while idEnd < count && body[idEnd] != 44 && body[idEnd] != 125 { idEnd += 1 }
    }
    let idLength = min(idEnd - idStart, 40)
    // {"jsonrpc":"2.0","id": + id + ,"result":null}
    let bodyLength = 22 + idLength + 15
    var at = 0
    func put(_ text: StaticString) {
        memcpy(output + at, text.utf8Start, text.utf8CodeUnitCount)
        at += text.utf8CodeUnitCount
    }
    put("Content-Length: ")
    if bodyLength >= 10 {
        output[at] = UInt8(48 + bodyLength / 10)
        at += 1
    }
    output[at] = UInt8(48 + bodyLength % 10)
    at += 1
    put("\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":")
    memcpy(output + at, body + idStart, idLength)
    at += idLength
    put(",\"result\":null}")
    return at
}

/// Writes `count` bytes of `bytes` to stdout; false when stdout is closed.
private func writeAll(_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
    var done = 0
    while done < count {
        let written = write(1, bytes + done, count - done)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return false }
        done += written
    }
    return true
}
