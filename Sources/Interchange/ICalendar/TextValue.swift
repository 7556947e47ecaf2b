// TextValue: iCalendar TEXT values (RFC 5545 3.3.11: `\\`, `\;`, `\,`, `\n`) and parameter values (quoting,
// RFC 6868's `^` escapes), read and written.

extension ICalendarFormat {
    /// TEXT values and parameter values as iCalendar spells them.
    enum TextValue {
        /// The text a TEXT value says: `\\` `\;` `\,` become `\` `;` `,`, `\n` and `\N` a line feed. Writers that
        /// escape a colon (`\:`, which RFC 5545 does not ask for) get a colon; a backslash before anything else is
        /// kept with what follows it.
        /// - Complexity: O(length).
        static func unescape(_ text: Substring) -> String {
            guard text.utf8.contains(backslash) else { return String(text) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            var escaped = false
            for byte in text.utf8 {
                if escaped {
                    escaped = false
                    switch byte {
                    case backslash, semicolon, comma, colon: bytes.append(byte)
                    case UInt8(ascii: "n"), UInt8(ascii: "N"): bytes.append(lineFeed)
                    default: bytes += [backslash, byte]
                    }
                } else if byte == backslash {
                    escaped = true
                } else {
                    bytes.append(byte)
                }
            }
            if escaped { bytes.append(backslash) }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The values of a comma-separated TEXT list (`CATEGORIES:a,b\,c` is `a` and `b,c`), each unescaped.
        /// - Complexity: O(length).
        static func list(_ text: Substring) -> [String] {
            var values: [String] = []
            var start = text.utf8.startIndex
            var index = start
            var escaped = false
            while index < text.utf8.endIndex {
                let byte = text.utf8[index]
                if escaped {
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == comma {
                    values.append(unescape(text[start..<index]))
                    start = text.utf8.index(after: index)
                }
                index = text.utf8.index(after: index)
            }
            values.append(unescape(text[start..<text.endIndex]))
            return values
        }

        /// `text` as a TEXT value: `\` `;` `,` escaped, every line end (LF, CRLF or a lone CR) written `\n`.
        /// - Complexity: O(length).
        static func escape(_ text: String) -> String {
            guard text.utf8.contains(where: { $0 == backslash || $0 == semicolon || $0 == comma || $0 == lineFeed
                || $0 == carriageReturn }) else { return text }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count + 8)
            var afterCarriageReturn = false
            for byte in text.utf8 {
                defer { afterCarriageReturn = byte == carriageReturn }
                switch byte {
                case backslash, semicolon, comma: bytes += [backslash, byte]
                case carriageReturn: bytes += [backslash, UInt8(ascii: "n")]
                case lineFeed where afterCarriageReturn: break
                case lineFeed: bytes += [backslash, UInt8(ascii: "n")]
                default: bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// A parameter's value as written after `=`: quoted when it holds `;`, `:` or `,`, with RFC 6868's `^^`,
        /// `^'` and `^n` for a caret, a double quote and a line end.
        static func parameterValue(_ text: String) -> String {
            var encoded = ""
            var needsQuotes = false
            for scalar in text.unicodeScalars {
                switch scalar {
                case "^": encoded += "^^"
                case "\"": encoded += "^'"
                case "\n", "\r": encoded += "^n"
                case ";", ":", ",": encoded.unicodeScalars.append(scalar); needsQuotes = true
                default: encoded.unicodeScalars.append(scalar)
                }
            }
            return needsQuotes ? "\"" + encoded + "\"" : encoded
        }

        /// The text an RFC 6868 parameter value stands for (`^^`, `^'`, `^n`; any other caret stays).
        static func decodeParameterValue(_ text: String) -> String {
            guard text.contains("^") else { return text }
            var decoded = ""
            var caret = false
            for scalar in text.unicodeScalars {
                if caret {
                    caret = false
                    switch scalar {
                    case "^": decoded += "^"
                    case "'": decoded += "\""
                    case "n": decoded += "\n"
                    default: decoded += "^"; decoded.unicodeScalars.append(scalar)
                    }
                } else if scalar == "^" {
                    caret = true
                } else {
                    decoded.unicodeScalars.append(scalar)
                }
            }
            if caret { decoded += "^" }
            return decoded
        }

        static let backslash = UInt8(ascii: "\\")
        static let semicolon = UInt8(ascii: ";")
        static let comma = UInt8(ascii: ",")
        static let colon = UInt8(ascii: ":")
        static let lineFeed = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")
    }
}
