// The shapes of a Taskwarrior JSON file `task import` takes: a JSON array of task objects (what `task export`
// writes, one task per line), one object, or one object per line (`rc.json.array=off`), each value with the line
// it starts on.

import Domain
import Wire

/// The values of a Taskwarrior file, each with the 1-based line it starts on.
enum TaskwarriorScan {
    /// Splits `text` into its task values: the elements of a top-level array, the one object, or the objects of
    /// the non-empty lines. A file that is none of these is refused with where its JSON breaks.
    /// - Complexity: O(length of `text`): one parse, and one pass over the bytes for the lines.
    static func values(of text: String, fileName: String) throws(ExchangeFailure) -> [(line: Int, value: JSON)] {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(ExchangeFailure) in try values(in: bytes, fileName: fileName) } }.get()
    }

    private static func values(in bytes: UnsafeBufferPointer<UInt8>, fileName: String) throws(ExchangeFailure)
        -> [(line: Int, value: JSON)] {
        var first = 0
        while first < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[first]) { first += 1 }
        guard first < bytes.count else { return [] }
        let raw = UnsafeRawBufferPointer(bytes)
        if bytes[first] == UInt8(ascii: "[") {
            let value: JSON
            do throws(JSONError) {
                value = try JSONParser.parse(raw)
            } catch {
                throw failure(fileName, bytes, error)
            }
            guard case .array(let elements) = value else { return [] }
            let lines = elementLines(bytes, count: elements.count)
            var values: [(line: Int, value: JSON)] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() { values.append((line: lines[index], value: element)) }
            return values
        }
        if bytes[first] == UInt8(ascii: "{") {
            if let value = try? JSONParser.parse(raw) { return [(line: lineOf(first, in: bytes), value: value)] }
            return try objectPerLine(bytes, fileName: fileName)
        }
        let found: String
        do throws(JSONError) {
            found = "found " + (try JSONParser.parse(raw)).typeDescription
        } catch {
            throw failure(fileName, bytes, error)
        }
        throw ExchangeFailure(problems: [ExchangeProblem(
            file: fileName, line: lineOf(first, in: bytes),
            message: "expected a JSON array of tasks (what `task export` writes), " + found)])
    }

    /// Each non-empty line parsed as one value; the first line that is not JSON refuses the file.
    private static func objectPerLine(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String) throws(ExchangeFailure)
        -> [(line: Int, value: JSON)] {
        var values: [(line: Int, value: JSON)] = []
        var start = 0
        var line = 1
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            let slice = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            if slice.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) {
                do throws(JSONError) {
                    values.append((line: line, value: try JSONParser.parse(slice)))
                } catch {
                    throw ExchangeFailure(problems: [ExchangeProblem(file: fileName, line: line, message: error.message)])
                }
            }
            start = end + 1
            line += 1
        }
        return values
    }

    /// The line each of the top-level array's `count` elements starts on: one pass that follows strings and
    /// nesting (the array parsed, so the text is valid JSON).
    /// - Complexity: O(bytes), a string's bytes skipped in a tight loop.
    private static func elementLines(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) -> [Int] {
        var lines: [Int] = []
        lines.reserveCapacity(count)
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), newline: UInt8 = 0x0A
        var line = 1
        var depth = 0
        var expectingValue = false
        var index = 0
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case newline:
                line += 1
            case 0x20, 0x09, 0x0D:
                break
            case quote:
                if depth == 1, expectingValue { lines.append(line) }
                if depth == 1 { expectingValue = false }
                // The string's bytes up to its closing quote; an escape skips the byte after it.
                while index < end {
                    let inner = bytes[index]
                    index += 1
                    if inner == quote { break }
                    if inner == backslash { index += 1 } else if inner == newline { line += 1 }
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 1, expectingValue { lines.append(line) }
                depth += 1
                expectingValue = depth == 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 1 { expectingValue = false }
            case UInt8(ascii: ","):
                if depth == 1 { expectingValue = true }
            default:
                if depth == 1, expectingValue { lines.append(line) }
                if depth == 1 { expectingValue = false }
            }
        }
        return lines
    }

    /// The file refused where its JSON breaks: the parser's words at the line of the byte it names.
    private static func failure(_ fileName: String, _ bytes: UnsafeBufferPointer<UInt8>, _ error: JSONError) -> ExchangeFailure {
        ExchangeFailure(problems: [ExchangeProblem(file: fileName, line: lineOf(error.offset, in: bytes), message: error.message)])
    }

    /// The 1-based line of byte `offset`.
    private static func lineOf(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A { line += 1 }
        return line
    }
}
