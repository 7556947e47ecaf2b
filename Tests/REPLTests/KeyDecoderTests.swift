/// The key decoder: every byte sequence it accepts, sequences cut between reads, and what it swallows.

@testable import REPL
import Testing

private let escape = "\u{1B}"

/// Every accepted sequence and the key it is.
private let table: [(bytes: String, key: Key)] = [
    ("\r", .enter), ("\n", .enter), ("\t", .tab), ("\u{7F}", .backspace), ("\u{8}", .backspace),
    ("\u{1}", .control("a")), ("\u{2}", .control("b")), ("\u{3}", .control("c")), ("\u{4}", .control("d")),
    ("\u{5}", .control("e")), ("\u{6}", .control("f")), ("\u{7}", .control("g")), ("\u{B}", .control("k")),
    ("\u{C}", .control("l")), ("\u{E}", .control("n")), ("\u{10}", .control("p")), ("\u{12}", .control("r")),
    ("\u{14}", .control("t")), ("\u{15}", .control("u")), ("\u{17}", .control("w")), ("\u{19}", .control("y")),
    (escape + "[A", .up), (escape + "[B", .down), (escape + "[C", .right), (escape + "[D", .left),
    (escape + "OA", .up), (escape + "OB", .down), (escape + "OC", .right), (escape + "OD", .left),
    (escape + "[H", .home), (escape + "OH", .home), (escape + "[1~", .home), (escape + "[7~", .home),
    (escape + "[F", .end), (escape + "OF", .end), (escape + "[4~", .end), (escape + "[8~", .end),
    (escape + "[1;2H", .home), (escape + "[1;5F", .end),
    (escape + "[3~", .delete),
    (escape + "b", .wordLeft), (escape + "f", .wordRight), (escape + "d", .deleteWordRight),
    (escape + "\u{7F}", .deleteWordLeft), (escape + "\u{8}", .deleteWordLeft),
    (escape + "[1;5D", .wordLeft), (escape + "[1;5C", .wordRight), (escape + "[1;3D", .wordLeft), (escape + "[1;3C", .wordRight),
    ("a", .text("a")), ("é", .text("é")), ("漢", .text("漢")), ("😀", .text("😀")), ("Tesk", .text("Tesk")),
    ("👩‍💻", .text("👩‍💻")), ("e\u{301}", .text("e\u{301}")),
]

@Test func everyAcceptedSequenceDecodes() {
    for (bytes, key) in table {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array(bytes.utf8)) == [key], "\(Array(bytes.utf8))")
        #expect(decoder.pending.isEmpty)
    }
}

@Test func sequencesCutBetweenReadsWaitForTheirRest() {
    for (bytes, key) in table {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for byte in Array(bytes.utf8) { keys += decoder.decode([byte]) }
        // Text comes a character at a time then; join it to compare.
        let joined = keys.reduce(into: [Key]()) { result, key in
            if case .text(let text) = key, case .text(let before)? = result.last { result[result.count - 1] = .text(before + text) } else { result.append(key) }
        }
        #expect(joined == [key], "\(Array(bytes.utf8)) byte by byte")
    }
}

@Test func unknownSequencesAreSwallowedWhole() {
    var decoder = KeyDecoder()
    // Page Up, F5, a bracketed paste's markers, a mouse-report style CSI, SS3 F1, Alt-x, a private-mode reply.
    let bytes = "a" + escape + "[5~" + escape + "[15~" + escape + "[200~b" + escape + "[201~" + escape + "[<0;3;4M" + escape + "OP" + escape + "x" + escape + "[?1;2c" + "c"
    #expect(decoder.decode(Array(bytes.utf8)) == [.text("abc")], "nothing of a sequence becomes text")
    #expect(decoder.pending.isEmpty)
}

@Test func escapeAloneIsEscapeOnlyWhenFlushed() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.pending == [0x1B])
    #expect(decoder.flush() == [.escape])
    #expect(decoder.pending.isEmpty)
    // An incomplete CSI is dropped by a flush; it never turns into text.
    #expect(decoder.decode(Array((escape + "[1;").utf8)) == [])
    #expect(decoder.flush() == [])
    #expect(decoder.decode(Array("x".utf8)) == [.text("x")])
    // ESC ESC [ A: an Escape, then Up.
    #expect(decoder.decode(Array((escape + escape + "[A").utf8)) == [.escape, .up])
}

@Test func garbageIsDroppedNotInserted() {
    var decoder = KeyDecoder()
    // Invalid UTF-8, a C1 control (U+009B, a one-byte CSI for some terminals), a bidi override, NUL, too long a CSI.
    let long = [UInt8](repeating: UInt8(ascii: "1"), count: 300)
    let bytes: [UInt8] = [0xFF, 0xC3] + Array("x".utf8) + Array("\u{9B}".utf8) + Array("\u{202E}".utf8) + [0] + [0x1B, 0x5B] + long + Array("~y".utf8)
    let keys = decoder.decode(bytes)
    let text = keys.compactMap { if case .text(let text) = $0 { text } else { nil } }.joined()
    #expect(text == "xy", "\(keys)")
    // An unfinished sequence longer than any real one is dropped rather than kept waiting.
    #expect(decoder.decode([0x1B, 0x5B] + long) == [])
    #expect(decoder.pending.isEmpty)
}

@Test func typedLineWithArrowsDecodesInOrder() {
    var decoder = KeyDecoder()
    let keys = decoder.decode(Array(("add Tesk" + escape + "[D" + escape + "[D\u{7F}a").utf8))
    #expect(keys == [.text("add Tesk"), .left, .left, .backspace, .text("a")])
}
