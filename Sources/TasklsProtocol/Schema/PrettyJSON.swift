/// JSON text for people to read and diff (`protocol.json`): one member or element per line, two spaces per level.

import Wire

/// Writes JSON indented, members in order; scalars exactly as `JSONSerializer` writes them, so the text parses back
/// to an equal value.
public enum PrettyJSON {
    /// `value` as indented text, without a final newline. Empty arrays and objects are written `[]` and `{}`.
    /// - Complexity: O(length of the output).
    public static func text(_ value: JSON) -> String {
        var output = ""
        write(value, level: 0, into: &output)
        return output
    }

    private static func write(_ value: JSON, level: Int, into output: inout String) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output += "["
            for (index, element) in elements.enumerated() {
                output += index == 0 ? "\n" : ",\n"
                indent(level + 1, into: &output)
                write(element, level: level + 1, into: &output)
            }
            output += "\n"
            indent(level, into: &output)
            output += "]"
        case .object(let object) where !object.isEmpty:
            output += "{"
            for (index, member) in object.members.enumerated() {
                output += index == 0 ? "\n" : ",\n"
                indent(level + 1, into: &output)
                output += JSON.string(member.key).text
                output += ": "
                write(member.value, level: level + 1, into: &output)
            }
            output += "\n"
            indent(level, into: &output)
            output += "}"
        default:
            output += value.text
        }
    }

    private static func indent(_ level: Int, into output: inout String) {
        output += String(repeating: "  ", count: level)
    }
}
