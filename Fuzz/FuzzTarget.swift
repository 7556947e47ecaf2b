/// The libFuzzer entry point for the wire module, built by `Fuzz/run.sh` (not by SwiftPM).

/// Runs one fuzzer input through the wire module; traps on any broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkJSONRoundTrip(bytes)
    checkFraming(bytes)
    return 0
}

/// Feeds the input to a frame decoder in chunks whose sizes come from the input itself, decodes
/// every body as a message, and checks that the decoder never holds more than its caps allow
/// and that the same input cut differently yields the same messages.
private func checkFraming(_ bytes: UnsafeRawBufferPointer) {
    let cap = 4096
    let whole = frames(bytes, chunk: bytes.count, cap: cap)
    let chunk = 1 + Int(bytes.first ?? 0) % 17
    let pieces = frames(bytes, chunk: chunk, cap: cap)
    precondition(whole.messages == pieces.messages, "chunking changed the messages")
    for body in whole.messages {
        _ = body.withUnsafeBytes { Message.decode($0) }
    }
}

private func frames(_ bytes: UnsafeRawBufferPointer, chunk: Int, cap: Int) -> (messages: [[UInt8]], errors: Int) {
    var decoder = FrameDecoder(maximumContentLength: cap)
    var messages: [[UInt8]] = []
    var errors = 0
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + max(1, chunk))
        decoder.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
        offset = end
        while let event = decoder.next() {
            switch event {
            case .message(let body):
                precondition(body.count <= cap, "a body over the cap was delivered")
                messages.append(body)
            case .error:
                errors += 1
            }
        }
        precondition(decoder.bufferedByteCount <= cap + decoder.maximumHeaderBytes + chunk, "the decoder buffers more than its caps")
    }
    _ = decoder.unfinishedMessage()
    return (messages, errors)
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
