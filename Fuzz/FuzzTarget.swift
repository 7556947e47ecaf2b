/// The libFuzzer entry point for the wire module, built by `Fuzz/run.sh` (not by SwiftPM).

/// Runs one fuzzer input through the wire module; traps on any broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkJSONRoundTrip(bytes)
    checkMessage(bytes)
    checkFraming(bytes)
    return 0
}

/// Feeds the input to frame decoders in chunks whose sizes come from the input itself, checks that the decoders
/// never hold more than their caps allow, that the same input cut differently yields the same messages (the
/// framing errors between them may differ: an oversized header block is seen whole or not), and that the two ways
/// of reading frames agree: `nextIncoming()` (bodies decoded in place) gives, event for event and however the input
/// is cut, what `next()` followed by `Message.decode` gives.
private func checkFraming(_ bytes: UnsafeRawBufferPointer) {
    let cap = 4096
    let whole = frames(bytes, chunk: bytes.count, cap: cap)
    let chunk = 1 + Int(bytes.first ?? 0) % 17
    let pieces = frames(bytes, chunk: chunk, cap: cap)
    precondition(whole.compactMap(\.body) == pieces.compactMap(\.body), "chunking changed the messages")
    precondition(
        incomings(bytes, chunk: bytes.count, cap: cap) == whole.map(incoming),
        "nextIncoming() disagrees with next() and Message.decode")
    precondition(
        incomings(bytes, chunk: chunk, cap: cap) == pieces.map(incoming),
        "nextIncoming() disagrees with next() and Message.decode on the input cut in pieces")
}

/// What `nextIncoming()` must read for an event of `next()`.
private func incoming(_ event: FrameEvent) -> Incoming {
    switch event {
    case .message(let body):
        switch body.withUnsafeBytes({ Message.decode($0) }) {
        case .success(let message): .message(message)
        case .failure(let failure): .malformed(failure)
        }
    case .error(let error):
        .malformed(MessageDecodingFailure(id: nil, error: error, isResponse: false))
    }
}

extension FrameEvent {
    /// The message's body, nil for a framing error.
    fileprivate var body: [UInt8]? {
        if case .message(let body) = self { body } else { nil }
    }
}

/// Every event `next()` reads from `bytes` appended `chunk` bytes at a time.
private func frames(_ bytes: UnsafeRawBufferPointer, chunk: Int, cap: Int) -> [FrameEvent] {
    var events: [FrameEvent] = []
    feed(bytes, chunk: chunk, cap: cap) { decoder in
        while let event = decoder.next() {
            if case .message(let body) = event {
                precondition(body.count <= cap, "a body over the cap was delivered")
            }
            events.append(event)
        }
    }
    return events
}

/// Everything `nextIncoming()` reads from `bytes` appended `chunk` bytes at a time.
private func incomings(_ bytes: UnsafeRawBufferPointer, chunk: Int, cap: Int) -> [Incoming] {
    var events: [Incoming] = []
    feed(bytes, chunk: chunk, cap: cap) { decoder in
        while let event = decoder.nextIncoming() { events.append(event) }
    }
    return events
}

/// Appends `bytes` to a fresh decoder `chunk` bytes at a time, letting `drain` read after each append, and checks
/// the decoder's buffer stays within its caps.
private func feed(
    _ bytes: UnsafeRawBufferPointer, chunk: Int, cap: Int, drain: (inout FrameDecoder) -> Void
) {
    var decoder = FrameDecoder(maximumContentLength: cap)
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + max(1, chunk))
        decoder.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
        offset = end
        drain(&decoder)
        precondition(decoder.bufferedByteCount <= cap + decoder.maximumHeaderBytes + chunk, "the decoder buffers more than its caps")
    }
    _ = decoder.unfinishedMessage()
}

/// A body is read as a message in place (`JSONParser.parseMessage`, no object built for the message): the result
/// must be what parsing the value and decoding it gives, the same message or the same failure.
private func checkMessage(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    let general: Result<Message, MessageDecodingFailure>
    do throws(JSONError) {
        general = Message.decode(try JSONParser.parse(bytes))
    } catch {
        general = .failure(MessageDecodingFailure(id: nil, error: ResponseError(.parseError, "parse error: \(error)"), isResponse: false))
    }
    precondition(Message.decode(bytes) == general, "reading the message in place differs from decoding its value")
}

/// A rejected input's error points inside the input (or just past its end); an accepted one
/// serializes to bytes that parse back to an equal value, and serializing that value again
/// gives the same bytes.
private func checkJSONRoundTrip(_ bytes: UnsafeRawBufferPointer) {
    let value: JSON
    do throws(JSONError) {
        value = try JSONParser.parse(bytes)
    } catch {
        precondition((0...bytes.count).contains(error.offset), "error offset outside the input: \(error)")
        return
    }
    let written = value.bytes
    guard let reparsed = try? JSONParser.parse(written) else {
        preconditionFailure("the serialized form does not parse:\n\(value.text)")
    }
    precondition(reparsed == value, "round trip changed the value:\n\(value.text)\n\(reparsed.text)")
    precondition(reparsed.bytes == written, "serializing is not stable:\n\(value.text)")
}
