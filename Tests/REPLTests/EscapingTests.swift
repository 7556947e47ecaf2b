/// Stored text never drives the terminal: `displayed` escapes controls and bidi overrides, and the REPL
/// prints titles, notes, tags and list names another client planted only in that escaped form.

@testable import REPL
import TasklsProtocol
import Testing
import TestSupport

/// `displayed`: each stored text and what the REPL prints for it.
@Test(arguments: [
    ("Buy milk", "Buy milk"),
    ("", ""),
    ("C:\\Users\\Ann", "C:\\Users\\Ann"),
    ("A\u{1B}[2JB", "A\\e[2JB"),
    ("\u{1B}]0;pwned\u{07}", "\\e]0;pwned\\u{7}"),
    ("one\ntwo\tthree\r", "one\\ntwo\\tthree\\r"),
    ("\u{0}\u{1F}\u{7F}", "\\u{0}\\u{1F}\\u{7F}"),
    ("\u{80}\u{9B}31m\u{9F}", "\\u{80}\\u{9B}31m\\u{9F}"),
    ("abc\u{202E}def\u{2066}\u{2069}\u{202A}", "abc\\u{202E}def\\u{2066}\\u{2069}\\u{202A}"),
    ("a\\nb", "a\\\\nb"),
    ("a\\\\b", "a\\\\\\b"),
    ("a\\\u{1B}", "a\\\\\\e"),
    ("ends in \\", "ends in \\"),
    ("\u{A0}é\u{A0}✓ \u{200F}", "\u{A0}é\u{A0}✓ \u{200F}"),
])
func displayedEscapes(_ stored: String, _ shown: String) {
    #expect(displayed(stored) == shown)
}

/// The printed form has no control, DEL, C1 or bidi override left, and reads back to the stored text.
@Test func displayedLeavesNoControlAndReadsBack() {
    let pools: [ClosedRange<UInt32>] = [0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x20...0x7E, 0x5C...0x5C, 0xA0...0x2070]
    var generator = SplitMix64(seed: 14)
    var escapedSome = 0
    for _ in 0..<2000 {
        var stored = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            let pool = pools.randomElement(using: &generator)!
            stored.append(Unicode.Scalar(UInt32.random(in: pool, using: &generator)) ?? "?")
        }
        let shown = displayed(String(stored))
        #expect(!shown.unicodeScalars.contains(where: isDangerous), "\(String(stored).debugDescription)")
        #expect(readBack(shown) == String(stored), "\(String(stored).debugDescription) shown as \(shown)")
        if shown != String(stored) { escapedSome += 1 }
    }
    #expect(escapedSome > 1000)
}

/// JSON as `raw` prints it: C1 and bidi written as JSON escapes, the rest untouched.
@Test func displayedJSON() {
    #expect(displayed(json: #"{"title":"a\u001b[2Jb"}"#) == #"{"title":"a\u001b[2Jb"}"#)
    #expect(displayed(json: "{\"title\":\"a\u{9B}b\u{202E}c\u{7F}\"}") == #"{"title":"a\u009bb\u202ec\u007f"}"#)
}

/// Issue 14's "Done when": a list, a title, notes and a tag holding escape sequences, stored through the
/// protocol, are printed escaped by `view`, `show`, `ls`, `done`, `rm` and `rename`; the REPL's own colors still work.
@Test(arguments: [false, true])
func plantedEscapesArePrintedEscaped(color: Bool) throws {
    let output = CapturedOutput()
    var options = try REPLOptions(arguments: [])
    options.timeZone = "UTC"
    let store = makeTemporaryDirectory(prefix: "taskls-repl-escape")
    defer { removeTree(store) }
    let repl = try REPL(options: options, output: output, style: Style(color: color, unicode: color, width: 100),
                        storeSetting: .directory(store))
    let list = try repl.send(ListsCreate(name: "Evil\u{1B}]0;pwned\u{07}")).list.id
    _ = try repl.send(ItemsCreate(list: list, title: "A\u{1B}[2JB", notes: "one\u{9B}31m\ntwo\u{202E}owt",
                                  tags: ["t\u{07}ag"]))
    _ = output.take()

    var printed = ""
    for command in ["open \(list)", "view", "show 1", "ls", "done 1", "rm 1", "undo", "rename Re\u{1B}[31mnamed"] {
        #expect(repl.execute(command), "\(command) failed: \(output.text)")
        printed += output.take()
    }

    #expect(printed.contains("A\\e[2JB"))
    #expect(printed.contains("Evil\\e]0;pwned\\u{7}"))
    #expect(printed.contains("#t\\u{7}ag"))
    #expect(printed.contains("one\\u{9B}31m\n"))
    #expect(printed.contains("two\\u{202E}owt"))
    #expect(printed.contains("\"A\\e[2JB\""), "the done/rm messages quote the escaped title")
    #expect(printed.contains("renamed \"Evil\\e]0;pwned\\u{7}\" to \"Re\\e[31mnamed\""))
    #expect(!printed.unicodeScalars.contains { $0 == "\u{07}" || $0 == "\u{9B}" || $0 == "\u{202E}" })
    if color {
        // Every ESC left is the REPL's own styling: a Select Graphic Rendition `ESC [ digits ; m`.
        let pieces = printed.split(separator: "\u{1B}", omittingEmptySubsequences: false).dropFirst()
        #expect(!pieces.isEmpty)
        for piece in pieces {
            let sequence = piece.prefix { $0 != "m" }
            #expect(piece.hasPrefix("[") && sequence.dropFirst().allSatisfy { $0.isNumber || $0 == ";" }
                    && piece.dropFirst(sequence.count).hasPrefix("m"), "not styling: \(piece.prefix(12).debugDescription)")
        }
    } else {
        #expect(!printed.unicodeScalars.contains("\u{1B}"))
    }
}

/// Whether `scalar` is one `displayed` must never let through.
private func isDangerous(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}

/// The stored text a printed form stands for: `\\`, `\e`, `\n`, `\t`, `\r` and `\u{HEX}` decoded, any
/// other backslash literal (the inverse of `displayed`).
private func readBack(_ shown: String) -> String {
    var result = String.UnicodeScalarView()
    var rest = Substring(shown).unicodeScalars[...]
    while let scalar = rest.popFirst() {
        guard scalar == "\\", let next = rest.first else { result.append(scalar); continue }
        switch next {
        case "\\": result.append("\\")
        case "e": result.append("\u{1B}")
        case "n": result.append("\n")
        case "t": result.append("\t")
        case "r": result.append("\r")
        case "u":
            let body = rest.dropFirst(2).prefix { $0 != "}" }
            guard let value = UInt32(String(String.UnicodeScalarView(body)), radix: 16), let decoded = Unicode.Scalar(value) else {
                result.append(scalar); continue
            }
            result.append(decoded)
            rest = rest.dropFirst(2 + body.count)
        default: result.append(scalar); continue
        }
        rest = rest.dropFirst()
    }
    return String(result)
}
