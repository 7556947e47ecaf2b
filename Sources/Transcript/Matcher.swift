/// Structural matching of a server message against a transcript's expected pattern.

import Wire

/// Where and how an actual message differs from its pattern.
public struct Mismatch: Error, Sendable, CustomStringConvertible {
    /// The path of the difference, such as `$.result.rows[2].id`.
    public var path: String
    /// What differs there.
    public var problem: String
    public var description: String { "\(path): \(problem)" }
}

/// Matches messages against patterns and keeps the values captured along the way.
///
/// A pattern matches when every member of an expected object is present and matches (extra
/// members are allowed), arrays match element by element with the same length, and scalars are
/// equal (numbers compare by value). Special strings: `"$any"` matches any value;
/// `"$absent"` requires the member to be missing; `"$bind:NAME"` matches any value and captures
/// it as NAME; `"$NAME"` must equal the value captured as NAME; `"$$…"` is the literal `"$…"`.
/// Only a `$` followed by a letter is special, so `"$/cancelRequest"` is an ordinary string.
public struct Matcher: Sendable {
    /// The values captured so far, by name.
    public private(set) var captures: [String: JSON] = [:]

    /// A matcher with nothing captured yet.
    public init() {}

    /// Matches `actual` against `pattern`, capturing on success (nothing is captured on failure).
    public mutating func match(_ pattern: JSON, _ actual: JSON) -> Mismatch? {
        var bound = captures
        if let mismatch = match(pattern, actual, path: "$", captures: &bound) { return mismatch }
        captures = bound
        return nil
    }

    /// `value` with every `"$NAME"` string replaced by its capture, and `"$$…"` unescaped.
    public func substitute(_ value: JSON) throws(Mismatch) -> JSON {
        switch value {
        case .string(let text) where text.hasPrefix("$$"):
            return .string(String(text.dropFirst()))
        case .string(let text) where isPlaceholder(text):
            let name = String(text.dropFirst())
            guard let captured = captures[name] else {
                throw Mismatch(path: "$", problem: "\(text) was never captured")
            }
            return captured
        case .array(let elements):
            var result: [JSON] = []
            for element in elements { result.append(try substitute(element)) }
            return .array(result)
        case .object(let object):
            var result = JSONObject()
            for member in object.members { result.members.append((member.key, try substitute(member.value))) }
            return .object(result)
        default:
            return value
        }
    }

    private func match(_ pattern: JSON, _ actual: JSON, path: String, captures: inout [String: JSON]) -> Mismatch? {
        switch pattern {
        case .string(let text) where isPlaceholder(text):
            if text == "$any" { return nil }
            if text == "$absent" { return Mismatch(path: path, problem: "expected no value, got \(actual.text)") }
            if text.hasPrefix("$bind:") {
                captures[String(text.dropFirst(6))] = actual
                return nil
            }
            guard let captured = captures[String(text.dropFirst())] else {
                return Mismatch(path: path, problem: "\(text) was never captured")
            }
            return captured == actual ? nil : Mismatch(path: path, problem: "expected \(text) = \(captured.text), got \(actual.text)")
        case .string(let text) where text.hasPrefix("$$"):
            return actual == .string(String(text.dropFirst())) ? nil : differs(path, pattern, actual)
        case .object(let expected):
            guard case .object(let object) = actual else { return differs(path, pattern, actual) }
            for member in expected.members {
                let memberPath = path + "." + member.key
                guard let value = object[member.key] else {
                    if member.value == .string("$absent") { continue }
                    return Mismatch(path: memberPath, problem: "missing; expected \(member.value.text)")
                }
                if let mismatch = match(member.value, value, path: memberPath, captures: &captures) { return mismatch }
            }
            return nil
        case .array(let expected):
            guard case .array(let elements) = actual else { return differs(path, pattern, actual) }
            guard expected.count == elements.count else {
                return Mismatch(path: path, problem: "expected \(expected.count) elements, got \(elements.count)")
            }
            for (index, (want, got)) in zip(expected, elements).enumerated() {
                if let mismatch = match(want, got, path: "\(path)[\(index)]", captures: &captures) { return mismatch }
            }
            return nil
        case .integer(let value):
            if case .double(let other) = actual, Double(value) == other { return nil }
            return pattern == actual ? nil : differs(path, pattern, actual)
        case .double(let value):
            if case .integer(let other) = actual, Double(other) == value { return nil }
            return pattern == actual ? nil : differs(path, pattern, actual)
        default:
            return pattern == actual ? nil : differs(path, pattern, actual)
        }
    }

    private func differs(_ path: String, _ pattern: JSON, _ actual: JSON) -> Mismatch {
        Mismatch(path: path, problem: "expected \(pattern.text), got \(actual.text)")
    }
}

/// Whether `text` is a placeholder: `$` followed by a letter.
private func isPlaceholder(_ text: String) -> Bool {
    var scalars = text.unicodeScalars.makeIterator()
    guard scalars.next() == "$", let first = scalars.next() else { return false }
    return (first >= "a" && first <= "z") || (first >= "A" && first <= "Z")
}
