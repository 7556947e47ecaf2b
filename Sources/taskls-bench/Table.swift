/// Timing helpers and a plain-text table for benchmark output.

#if canImport(Glibc)
import Glibc
#endif
import Wire

/// Nanoseconds on the monotonic clock.
func nanoseconds() -> UInt64 { monotonicNanoseconds() }

/// The `fraction` percentile (0...1) of `samples`, which it sorts.
func percentile(_ samples: inout [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    samples.sort()
    return samples[min(samples.count - 1, Int(Double(samples.count) * fraction))]
}

/// Formats `value` with `digits` decimals.
func format(_ value: Double, _ digits: Int = 1) -> String {
    var factor = 1.0
    for _ in 0..<digits { factor *= 10 }
    let rounded = (value * factor).rounded() / factor
    var text = String(rounded)
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// Renders rows as an aligned table with a header rule.
func table(_ title: String, _ header: [String], _ rows: [[String]]) -> String {
    var widths = header.map(\.count)
    for row in rows {
        for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            index == 0 ? cell.padding(widths[index]) : String(repeating: " ", count: widths[index] - cell.count) + cell
        }.joined(separator: "  ")
    }
    var output = title + "\n" + line(header) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
    for row in rows { output += line(row) + "\n" }
    return output
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
