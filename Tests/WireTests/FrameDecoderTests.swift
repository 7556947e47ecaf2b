/// Framing: whole messages, one byte at a time, cut anywhere, and every broken header.

import Testing
@testable import Wire

private func frame(_ body: String, header: String? = nil) -> [UInt8] {
    Array((header ?? "Content-Length: \(body.utf8.count)\r\n\r\n").utf8) + Array(body.utf8)
}

/// Feeds `chunks` and collects every event.
private func decode(_ chunks: [[UInt8]], maximum: Int = 1 << 20) -> [FrameEvent] {
    var decoder = FrameDecoder(maximumContentLength: maximum)
    var events: [FrameEvent] = []
    for chunk in chunks {
        decoder.append(chunk)
        while let event = decoder.next() { events.append(event) }
    }
    return events
}

private func bodies(_ events: [FrameEvent]) -> [String] {
    events.compactMap { if case .message(let body) = $0 { String(decoding: body, as: UTF8.self) } else { nil } }
}

private func errors(_ events: [FrameEvent]) -> [String] {
    events.compactMap { if case .error(let error) = $0 { error.message } else { nil } }
}

@Test func decodesConsecutiveMessages() {
    let stream = frame("{\"a\":1}") + frame("{\"b\":2}") + frame("[]")
    #expect(bodies(decode([stream])) == ["{\"a\":1}", "{\"b\":2}", "[]"])
}

@Test func decodesOneByteAtATime() {
    let stream = frame("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}") + frame("{\"é\":\"ü\"}")
    #expect(bodies(decode(stream.map { [$0] })) == ["{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}", "{\"é\":\"ü\"}"])
}

@Test func decodesAStreamCutAnywhere() {
    let stream = frame("{\"first\":true}") + frame("{\"second\":[1,2,3]}", header: "content-length: 18\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n")
    for cut in 0...stream.count {
        let events = decode([Array(stream[..<cut]), Array(stream[cut...])])
        #expect(bodies(events) == ["{\"first\":true}", "{\"second\":[1,2,3]}"], "cut at \(cut)")
        #expect(errors(events).isEmpty, "cut at \(cut)")
    }
}

@Test(arguments: [
    ("Content-Length: 2\r\n\r\n{}", "CRLF"),
    ("Content-Length: 2\n\n{}", "bare LF"),
    ("CONTENT-LENGTH: 2\r\n\r\n{}", "upper-case name"),
    ("content-length:2\r\n\r\n{}", "no space after the colon"),
    ("Content-Length:   2   \r\n\r\n{}", "padded value"),
    ("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}", "Content-Type first"),
    ("Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf8\r\n\r\n{}", "utf8 spelling"),
    ("Content-Length: 2\r\nX-Custom: whatever\r\n\r\n{}", "unknown header ignored"),
])
func acceptsHeaderVariants(_ stream: String, _ name: String) {
    let events = decode([Array(stream.utf8)])
    #expect(bodies(events) == ["{}"], "\(name)")
    #expect(errors(events).isEmpty, "\(name)")
}

@Test(arguments: [
    ("Content-Type: application/json\r\n\r\n{}", "Content-Length header is missing"),
    ("Content-Length: abc\r\n\r\n{}", "Content-Length 'abc' is not a non-negative integer"),
    ("Content-Length: -2\r\n\r\n{}", "Content-Length '-2' is not a non-negative integer"),
    ("Content-Length: +2\r\n\r\n{}", "is not a non-negative integer"),
    ("Content-Length: 0x2\r\n\r\n{}", "is not a non-negative integer"),
    ("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "Content-Length appears 2 times"),
    ("Content-Length 2\r\n\r\n{}", "malformed header line"),
    ("Content-Length: 2\r\nContent-Type: text/plain; charset=latin1\r\n\r\n{}", "charset latin1 is not supported"),
])
func rejectsBrokenHeadersAndRecovers(_ broken: String, _ expected: String) {
    let events = decode([Array(broken.utf8) + frame("{\"next\":1}")])
    #expect(errors(events).count == 1 && errors(events)[0].contains(expected), "\(errors(events))")
    #expect(bodies(events) == ["{\"next\":1}"], "the next message must still be read after \(broken.debugDescription)")
}

@Test func skipsAnOversizedBodyWhileItStreams() {
    var decoder = FrameDecoder(maximumContentLength: 1000)
    decoder.append(Array("Content-Length: 5000000\r\n\r\n".utf8))
    #expect(errors([decoder.next()].compactMap { $0 }).first?.contains("exceeds the limit of 1000 bytes") == true)
    let chunk = [UInt8](repeating: 0x61, count: 65536)
    for _ in 0..<76 {
        decoder.append(chunk)
        #expect(decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 0, "a skipped body must never be buffered")
    }
    decoder.append(Array(repeating: 0x61, count: 5_000_000 - 76 * 65536) + frame("{}"))
    #expect(decoder.next() == .message(Array("{}".utf8)))
}

@Test func acceptsABodyExactlyAtTheCap() {
    let body = "[" + String(repeating: "1,", count: 498) + "11]"
    #expect(body.utf8.count == 1000)
    #expect(bodies(decode([frame(body)], maximum: 1000)) == [body])
    #expect(errors(decode([frame(body + " ")], maximum: 1000)).first?.contains("exceeds the limit") == true)
}

@Test func rejectsAnOverlongHeaderBlockWithoutBufferingIt() {
    var decoder = FrameDecoder()
    decoder.append(Array("X-Junk: ".utf8) + [UInt8](repeating: 0x62, count: 20000))
    #expect(errors([decoder.next()].compactMap { $0 }).first?.contains("header block exceeds 8192 bytes") == true)
    decoder.append([UInt8](repeating: 0x62, count: 100_000))
    #expect(decoder.next() == nil)
    #expect(decoder.bufferedByteCount <= 2)
    decoder.append(Array("\r\n\r\n".utf8) + frame("{}"))
    #expect(decoder.next() == .message(Array("{}".utf8)))
}

@Test func resynchronizesOnGarbageBeforeAHeader() {
    let events = decode([Array("garbage\r\nmore garbage\r\n\r\n".utf8) + frame("{}")])
    #expect(errors(events).count == 1)
    #expect(bodies(events) == ["{}"])
}

@Test func reportsWhereTheInputEnded() {
    var decoder = FrameDecoder()
    decoder.append(Array("Content-Length: 10\r\n\r\n{\"a\"".utf8))
    #expect(decoder.next() == nil)
    #expect(decoder.unfinishedMessage() == "input ended inside a message body: 4 of 10 bytes received")
    var clean = FrameDecoder()
    clean.append(frame("{}"))
    _ = clean.next()
    #expect(clean.unfinishedMessage() == nil)
}

@Test func encoderFramesWithByteLengths() {
    let bytes = FrameEncoder.frame(.notification(method: "x", params: ["title": "café"]))
    let text = String(decoding: bytes, as: UTF8.self)
    let body = "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"title\":\"café\"}}"
    #expect(text == "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    #expect(body.utf8.count == body.count + 1, "the length counts bytes, not characters")
    #expect(bodies(decode([bytes])).count == 1)
}

@Test func skipsTheBodyOfAnOverlongHeaderBlockThatNamesItsLength() {
    // The body looks like a frame of its own; it must be skipped, not read as one.
    let trap = "Content-Length: 2\r\n\r\n{}"
    let header = "Content-Length: \(trap.utf8.count)\r\nX-Padding: " + String(repeating: "p", count: 9000) + "\r\n\r\n"
    let events = decode([Array(header.utf8) + Array(trap.utf8) + frame("{\"next\":1}")])
    #expect(errors(events).count == 1 && errors(events)[0].contains("header block exceeds 8192 bytes"))
    #expect(bodies(events) == ["{\"next\":1}"])
}
