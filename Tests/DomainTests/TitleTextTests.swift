// Tests of TitleText: a title's block reads back the title, and its folded key agrees with CollationKey's in every
// way a sort and a filter read it.

import Testing
@testable import Domain
import TestSupport

@Suite struct TitleTextTests {
    /// Pieces titles are made of: ASCII letters of both cases, digits, punctuation, letters that fold to other
    /// bytes (`É`, `ß`, combining marks), and letters that do not fold (CJK).
    static let pieces = ["a", "B", "z", "Z", "q", "Q", " ", "7", "-", "@", "[", "`", "{", "É", "é", "ß", "e\u{301}",
                         "Ø", "日", "Ά", "ı", "Task ", "TASK ", "task "]

    static func randomTitle(_ random: inout SplitMix64) -> String {
        (0..<(1 + random.below(12))).map { _ in pieces[random.below(pieces.count)] }.joined()
    }

    @Test(arguments: ["Buy milk", "BUY MILK", "a", "Task number 123456 with a realistic title", "Éclair", "Straße",
                      "naïve café", "日本", "e\u{301}clair", "@[`{", String(repeating: "Zz", count: 300)])
    func aBlockHoldsItsTitleAndFoldsLikeCollationKey(title: String) {
        let text = TitleText.make(title)
        #expect(text.string == title)
        #expect(text.withUTF8 { Array($0) } == Array(title.utf8))
        #expect(text.collationKey == CollationKey(folding: title))
        let folded = CollationKey(folding: title).bytes
        for start in [0, 8, 16] {
            var prefix: UInt64 = 0
            for index in start..<start + 8 { prefix = prefix << 8 | (index < folded.count ? UInt64(folded[index]) : 0) }
            #expect(text.foldedPrefix(from: start) == prefix)
        }
    }

    @Test func randomTitlesCompareAndSearchAsTheirFoldedBytes() {
        var random = SplitMix64(seed: 2_111)
        var ties = 0
        var found = 0
        for _ in 0..<3_000 {
            let left = Self.randomTitle(&random)
            // A third of the pairs differ only in the case of ASCII letters, so they fold alike.
            let right = random.chance(33) ? String(left.map { character -> Character in
                guard character.isASCII, character.isLetter else { return character }
                return character.isUppercase ? Character(character.lowercased()) : Character(character.uppercased())
            }) : Self.randomTitle(&random)
            let (leftText, rightText) = (TitleText.make(left), TitleText.make(right))
            let (leftKey, rightKey) = (CollationKey(folding: left), CollationKey(folding: right))
            let expected = compareBytes(leftKey.bytes, rightKey.bytes).signum()
            #expect(TitleText.compareFolded(leftText, rightText) == expected, "\(left) against \(right)")
            #expect(TitleText.compareFolded(rightText, leftText) == -expected)
            #expect((leftText == rightText) == (left.utf8.elementsEqual(right.utf8)))
            if expected == 0 { ties += 1 }
            // A needle from inside the other title, or a random one.
            let needle = random.chance(50) && !rightKey.bytes.isEmpty
                ? Array(rightKey.bytes[random.below(rightKey.bytes.count)...].prefix(1 + random.below(4)))
                : CollationKey(folding: Self.randomTitle(&random)).bytes
            let occurs = Filter.occurs(needle, in: leftKey.bytes)
            #expect(leftText.foldedContains(needle) == occurs, "\(needle) in \(left)")
            if occurs { found += 1 }
        }
        // The run compared titles that fold alike and found needles, not only differences and misses.
        #expect(ties > 500 && found > 300, "ties \(ties), found \(found)")
    }

    @Test func anItemReadsAndSetsItsTitleThroughTheBlock() {
        var item = Item(id: ItemID(2), list: ListID(1), title: "Plan trip", notes: "", done: false, completedAt: nil,
                        due: nil, priority: .none, tags: [], createdAt: Timestamp(milliseconds: 0),
                        modifiedAt: Timestamp(milliseconds: 0), revision: 1, position: Position.initial)
        #expect(item.title == "Plan trip" && item.titleKey == CollationKey(folding: "plan trip"))
        item.title = "Ångström"
        #expect(item.title == "Ångström" && item.titleKey == CollationKey(folding: "angstrom"))
        var copy = item
        #expect(copy == item && copy.hashValue == item.hashValue)
        copy.title = "Ångström"
        #expect(copy == item, "equal titles in different blocks")
    }
}

@Suite struct TitleTextStorageTests {
    @Test func bytesReadFromStorageMakeTheSameBlockOrNone() {
        for title in ["Buy milk", "Éclair", "日本", "e\u{301}", ""] {
            let made = Array(title.utf8).withUnsafeBufferPointer { TitleText.make(utf8: $0) }
            #expect(made == TitleText.make(title))
            #expect(made?.collationKey == CollationKey(folding: title))
        }
        for invalid: [UInt8] in [[0xFF], [0x61, 0xC3], [0xE6, 0x97], [0x80, 0x61]] {
            #expect(invalid.withUnsafeBufferPointer { TitleText.make(utf8: $0) } == nil)
        }
    }

    /// A stored title is checked in place as `Validation.title` checks a string, with the same errors.
    @Test(arguments: ["Buy milk", " x ", "", " ", "\t\r\n", "\u{A0}", "\u{3000}x", "É", "\u{0B}\u{0C}", "\u{1C}", "\u{85}",
                      "\u{0B}x", "\u{1F}\u{20}",
                      String(repeating: "a", count: Limits.titleCharacters),
                      String(repeating: "a", count: Limits.titleCharacters + 1),
                      String(repeating: "é", count: Limits.titleCharacters),
                      String(repeating: "\r\n", count: Limits.titleCharacters)])
    func aStoredTitleIsCheckedAsItsString(title: String) {
        var expected: DomainError?
        do { try Validation.title(title) } catch { expected = error }
        var found: DomainError?
        do { try Validation.title(TitleText.make(title)) } catch { found = error }
        #expect(found == expected)
    }
}
