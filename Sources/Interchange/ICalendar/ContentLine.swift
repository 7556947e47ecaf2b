// ContentLine: iCalendar's lines (RFC 5545 3.1): unfolding (a line end followed by a space or tab continues the
// line), then `NAME;PARAM=VALUE,VALUE;…:value` split into its name, parameters and value.

extension ICalendarFormat {
    /// A line after unfolding, with the number of the physical line it starts on.
    struct LogicalLine {
        /// The line's text, its continuations joined, without its line end.
        let text: String
        /// The 1-based physical line it starts on.
        let line: Int
    }

    /// One property parameter: its name in upper case and its values, unquoted.
    struct Parameter {
        /// The name in upper case (`TZID`, `VALUE`, `X-APPLE-…`).
        let name: String
        /// Its values as written, without quotes (`TZID="Europe/Berlin"` is `Europe/Berlin`).
        let values: [String]
    }

    /// One content line: `NAME;PARAM=VALUE;…:value`.
    struct ContentLine {
        /// The name in upper case (names are case-insensitive).
        let name: String
        /// The parameters, in order.
        let parameters: [Parameter]
        /// The value, as written (TEXT values still escaped).
        let value: Substring
        /// Everything after the name: the parameters and the value as written, `;X-PARAM=1:value` (an extra's value).
        let afterName: Substring
        /// The whole unfolded line as written.
        let raw: String
        /// The 1-based physical line it starts on.
        let line: Int

        /// The first value of the first parameter named `name` (upper case), or nil.
        func parameter(_ name: String) -> String? {
            parameters.first { $0.name == name }?.values.first
        }

        /// The value with surrounding white space trimmed (for names, numbers, dates: writers leave trailing spaces).
        var trimmedValue: Substring {
            var text = value
            while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
            while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
            return text
        }
    }

    /// A line that is not a content line, with why.
    struct MalformedLine: Error {
        /// The 1-based physical line.
        let line: Int
        /// What is wrong, in words.
        let message: String
    }

    /// The logical lines of `text`: lines end in CRLF or LF alone; a line that starts with a space or a tab continues
    /// the one before (without that first character); an empty line ends the line before and is skipped, and so is
    /// a line of white space that continues nothing. A byte order mark at the start is dropped.
    /// - Complexity: O(length of `text`).
    static func unfold(_ text: String) -> [LogicalLine] {
        var lines: [LogicalLine] = []
        var current: [UInt8] = []
        var currentLine = 0
        var open = false
        var physical = 0
        func flush() {
            if open { lines.append(LogicalLine(text: String(decoding: current, as: UTF8.self), line: currentLine)) }
            open = false
            current.removeAll(keepingCapacity: true)
        }
        let bytes = Array(text.utf8)
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != TextValue.lineFeed { end += 1 }
            let next = end + 1
            if end > start, bytes[end - 1] == TextValue.carriageReturn { end -= 1 }
            physical += 1
            if end == start {
                flush()
            } else if bytes[start] == space || bytes[start] == tab {
                if open {
                    current += bytes[(start + 1)..<end]
                } else if !bytes[start..<end].allSatisfy({ $0 == space || $0 == tab }) {
                    var first = start
                    while bytes[first] == space || bytes[first] == tab { first += 1 }
                    current += bytes[first..<end]
                    currentLine = physical
                    open = true
                }
            } else {
                flush()
                current += bytes[start..<end]
                currentLine = physical
                open = true
            }
            start = next
        }
        flush()
        return lines
    }

    /// Splits a logical line into name, parameters and value, or says why it is not a content line.
    /// - Complexity: O(length of the line).
    static func parse(_ logical: LogicalLine) -> Result<ContentLine, MalformedLine> {
        let text = logical.text
        let utf8 = text.utf8
        func malformed(_ message: String) -> Result<ContentLine, MalformedLine> {
            .failure(MalformedLine(line: logical.line, message: message))
        }
        func next(_ index: String.Index) -> String.Index { utf8.index(after: index) }
        var index = utf8.startIndex
        while index < utf8.endIndex, utf8[index] != TextValue.semicolon, utf8[index] != TextValue.colon {
            index = next(index)
        }
        let name = text[utf8.startIndex..<index]
        guard !name.isEmpty, index < utf8.endIndex, name.utf8.allSatisfy(isNameByte) else {
            return malformed("\(quoted(text)) is not a content line (NAME:value)")
        }
        var parameters: [Parameter] = []
        while utf8[index] == TextValue.semicolon {
            index = next(index)
            let nameStart = index
            while index < utf8.endIndex, utf8[index] != equals, utf8[index] != TextValue.semicolon,
                  utf8[index] != TextValue.colon {
                index = next(index)
            }
            guard index < utf8.endIndex, utf8[index] == equals, nameStart < index else {
                return malformed("\(name.uppercased()): a parameter has no value (write NAME=value)")
            }
            let parameterName = text[nameStart..<index].uppercased()
            index = next(index)
            var values: [String] = []
            while true {
                if index < utf8.endIndex, utf8[index] == quote {
                    index = next(index)
                    let valueStart = index
                    while index < utf8.endIndex, utf8[index] != quote { index = next(index) }
                    guard index < utf8.endIndex else {
                        return malformed("\(name.uppercased()): parameter \(parameterName) has an unclosed quote")
                    }
                    values.append(String(text[valueStart..<index]))
                    index = next(index)
                } else {
                    let valueStart = index
                    while index < utf8.endIndex, utf8[index] != TextValue.comma, utf8[index] != TextValue.semicolon,
                          utf8[index] != TextValue.colon, utf8[index] != quote {
                        index = next(index)
                    }
                    values.append(String(text[valueStart..<index]))
                }
                guard index < utf8.endIndex, utf8[index] == TextValue.comma else { break }
                index = next(index)
            }
            guard index < utf8.endIndex, utf8[index] == TextValue.semicolon || utf8[index] == TextValue.colon else {
                return malformed("\(name.uppercased()): has no colon before its value (NAME;PARAM=value:value)")
            }
            parameters.append(Parameter(name: parameterName, values: values))
        }
        let afterName = text[name.endIndex...]
        return .success(ContentLine(name: name.uppercased(), parameters: parameters, value: text[next(index)...],
                                    afterName: afterName, raw: text, line: logical.line))
    }

    /// `text` in double quotes, cut to 40 characters.
    static func quoted(_ text: some StringProtocol) -> String {
        "\"" + (text.count > 40 ? text.prefix(40) + "…" : String(text)) + "\""
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\"")
}
