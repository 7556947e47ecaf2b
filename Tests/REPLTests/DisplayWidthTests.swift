/// Terminal cells: wide CJK and emoji take two, marks and joiners none, so tables line up in a terminal.

@testable import REPL
import Testing

/// The cells of each text.
@Test(arguments: [
    ("Buy milk", 8),
    ("", 0),
    ("牛乳を買う", 10),
    ("우유 사기", 9),
    ("ｆｕｌｌ", 8),
    ("🎉 party", 8),
    ("👨‍👩‍👧 family", 9),
    ("🇫🇷", 2),
    ("❤️", 1),
    ("❤", 1),
    ("👍🏽", 2),
    ("e\u{301}te\u{301}", 3),
    ("a\u{200B}b", 2),
    ("naïve", 5),
    ("#1", 2),
])
func cells(_ text: String, _ expected: Int) {
    #expect(DisplayWidth.of(text) == expected)
}

/// Cutting to a width ends in `…`, never splits a wide character, and leaves short text alone.
@Test(arguments: [
    ("Buy milk", 20, "Buy milk"),
    ("Buy milk", 8, "Buy milk"),
    ("Buy milk", 7, "Buy mi…"),
    ("牛乳を買う", 6, "牛乳…"),
    ("牛乳を買う", 5, "牛乳…"),
    ("🎉🎉🎉", 4, "🎉…"),
    ("abc", 1, "…"),
    ("abc", 0, ""),
])
func truncation(_ text: String, _ width: Int, _ expected: String) {
    let cut = DisplayWidth.truncated(text, toWidth: width)
    #expect(cut == expected)
    #expect(DisplayWidth.of(cut) <= width)
}

/// Padding counts cells, so a CJK title and a Latin one end in the same column.
@Test func paddingAlignsWideText() {
    let rows = ["牛乳", "milk", "🎉x"].map { DisplayWidth.padded($0, toWidth: 6) + "|" }
    #expect(rows.map { DisplayWidth.of($0) } == [7, 7, 7])
    #expect(DisplayWidth.paddedLeft("牛", toWidth: 3) == " 牛")
}
