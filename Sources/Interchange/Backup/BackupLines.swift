// BackupLines: where the backup's parts start, as line numbers for messages: the line of a byte offset, and the
// line each element of the top level's arrays starts on (a scan of text already known to be JSON).

/// Line numbers in a backup's text.
enum BackupLines {
    /// The 1-based line of the byte at `offset`.
    /// - Complexity: O(offset).
    static func line(ofOffset offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// For each member of the top-level object whose value is an array, the line each of its elements starts on.
    /// The text must be valid JSON (the parser has read it).
    /// - Complexity: O(length of the text).
    static func elementLines(in text: String) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        var depth = 0
        var line = 1
        var inString = false
        var escaped = false
        var stringStart: Int?
        var lastKey: String?
        var arrayKey: String?  // the top-level member whose array is open (depth 2)
        var expectingElement = false
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                    if depth == 1, let start = stringStart { lastKey = String(decoding: bytes[start..<index], as: UTF8.self) }
                }
                index += 1
                continue
            }
            if expectingElement, depth == 2, !(byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A),
               byte != 0x5D, let key = arrayKey {
                result[key, default: []].append(line)
                expectingElement = false
            }
            switch byte {
            case 0x0A:
                line += 1
            case 0x22:
                inString = true
                stringStart = index + 1
            case 0x7B, 0x5B:
                depth += 1
                if depth == 2, byte == 0x5B {
                    arrayKey = lastKey
                    expectingElement = true
                }
            case 0x7D, 0x5D:
                if depth == 2 { arrayKey = nil }
                depth -= 1
            case 0x2C:
                if depth == 2, arrayKey != nil { expectingElement = true }
            default:
                break
            }
            index += 1
        }
        return result
    }
}
