// LineWriter: iCalendar text being written: content lines ended by CRLF and folded at 75 octets (RFC 5545 3.1),
// never inside a UTF-8 sequence.

extension ICalendarFormat {
    /// The text of a file being written, line by line.
    struct LineWriter {
        /// The most octets a physical line holds, its CRLF not counted.
        static let lineOctets = 75

        /// What has been written.
        private(set) var text = ""

        /// Writes one content line (without a line end), folded: when it is longer than 75 octets, a CRLF and a
        /// space go before the character that would pass the limit, so every physical line, the space included,
        /// holds at most 75 octets and no character is split.
        /// - Complexity: O(length of `line`).
        mutating func line(_ line: String) {
            guard line.utf8.count > Self.lineOctets else {
                text += line
                text += "\r\n"
                return
            }
            var octets = 0
            for scalar in line.unicodeScalars {
                let width = UTF8.width(scalar)
                if octets + width > Self.lineOctets {
                    text += "\r\n "
                    octets = 1
                }
                text.unicodeScalars.append(scalar)
                octets += width
            }
            text += "\r\n"
        }

        /// Writes `NAME:value` with the value escaped as TEXT.
        mutating func text(_ name: String, _ value: String) {
            line(name + ":" + TextValue.escape(value))
        }

        /// Writes the lines of a component kept as text (`BEGIN:…` to `END:…`, joined by line feeds).
        mutating func component(_ text: String) {
            for part in text.split(separator: "\n", omittingEmptySubsequences: true) {
                line(String(part.hasSuffix("\r") ? part.dropLast() : part))
            }
        }
    }
}
