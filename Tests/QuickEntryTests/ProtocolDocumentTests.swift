/// protocol.md's quick-entry examples, read from the document and checked against the grammar: a client
/// written from the document agrees with the server.

import Domain
import Foundation
import QuickEntry
import Testing
import TestSupport

/// The text of protocol.md's section `heading` (up to the next heading of its level or above).
func section(_ heading: String) throws -> String {
    let text = try #require(readTextFile(BuildPaths.repositoryRoot + "/protocol.md"))
    let start = try #require(text.range(of: "\n" + heading + "\n"), "protocol.md has no \(heading)")
    let rest = text[start.upperBound...]
    let end = rest.range(of: "\n### ")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
}

/// Every "`phrase` → `result`" of a text.
func examples(_ text: String) -> [(phrase: String, result: String)] {
    let pieces = text.components(separatedBy: "` → `")
    var found: [(String, String)] = []
    for index in 0..<(pieces.count - 1) {
        guard let open = pieces[index].lastIndex(of: "`"), let close = pieces[index + 1].firstIndex(of: "`") else { continue }
        found.append((String(pieces[index][pieces[index].index(after: open)...]), String(pieces[index + 1][..<close])))
    }
    return found
}

@Test func theDuePhraseExamplesOfProtocolMdAreWhatTheGrammarReads() throws {
    let found = examples(try section("### Due phrases"))
    #expect(found.count >= 20, "only \(found.count) examples found")
    for (phrase, result) in found {
        let parsed = ItemGrammar.parse("x ^" + phrase, clock: clock(), lists: .known(directory))
        #expect(written(parsed.due) == result, "protocol.md: `\(phrase)` → `\(result)`")
        #expect(parsed.warnings.isEmpty, "protocol.md: `\(phrase)`: \(parsed.warnings.map(\.message))")
    }
}
