/// Server messages in words a user knows: the protocol's field paths and view ids are for editors' authors,
/// not for someone at the prompt.

import Foundation

/// `message` with each field path `params.a.b[2].c` written as its last name (`c`), `result.`… likewise, and
/// each view id (`view v5`, `v5`) as "this view" / "the view".
/// - Complexity: O(n) in the length of `message`.
func plainWords(_ message: String) -> String {
    var result = ""
    var rest = Substring(message)
    while let first = rest.first {
        let atWordStart = result.last.map { !$0.isLetter && !$0.isNumber && $0 != "." } ?? true
        if atWordStart, let prefix = ["params.", "result."].first(where: { rest.hasPrefix($0) }) {
            let path = rest.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "[" || $0 == "]" || $0 == "_" }
            let name = path.split(separator: ".").last.map { $0.prefix { $0 != "[" } } ?? ""
            if !name.isEmpty {
                result += name
                rest = rest.dropFirst(prefix.count + path.count)
                continue
            }
        }
        if atWordStart, let length = viewIDLength(at: rest) {
            if result.hasSuffix("view ") || result.hasSuffix("View ") {
                result.removeLast(5)
                result += result.isEmpty || result.hasSuffix(". ") ? "This view" : "this view"
            } else {
                result += "the view"
            }
            rest = rest.dropFirst(length)
            continue
        }
        result.append(first)
        rest = rest.dropFirst()
    }
    return result
}

/// The length of a view id (`v` and digits, ending a word) at the start of `text`, if one is there.
private func viewIDLength(at text: Substring) -> Int? {
    guard text.first == "v" else { return nil }
    let digits = text.dropFirst().prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty else { return nil }
    let after = text.dropFirst(1 + digits.count).first
    if let after, after.isLetter || after.isNumber { return nil }
    return 1 + digits.count
}

/// A list name as the REPL compares names (`open NAME`, duplicate names): ignoring case and diacritics, as the
/// server's `@NAME` does (which folds with the domain's `CollationKey`; Foundation's folding agrees on letters
/// with accents and case, the REPL stays out of the domain).
func foldedName(_ name: String) -> String {
    name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
}

extension String {
    /// The string without white space at either end.
    var trimmingWhiteSpace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
