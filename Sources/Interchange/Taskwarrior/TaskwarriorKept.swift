// What a task's `taskwarrior:` extras keep, read back for writing: its fields as they were, the annotations,
// and a series' template and instances.

import Domain
import Wire

/// A task's Taskwarrior extras, parsed.
struct TaskwarriorKept {
    /// Read from the extras: it had no project.
    var noProject = false
    /// Its status was `waiting`.
    var waiting = false
    /// A priority that is not H, M or L.
    var priority: JSON?
    /// The annotations as read (the chunks joined), when kept.
    var annotations: [JSON]?
    /// A template's own due (its series' start).
    var seriesDue: Timestamp?
    /// A template's period as written.
    var recur: String?
    /// A template's mask.
    var mask: String?
    /// A template's description, project, priority and tags as read.
    var template: JSONObject?
    /// A template's instances as read.
    var instances: [JSONObject] = []
    /// Every other field, by name, in the order first met (an array given in chunks joined).
    var fields: [(name: String, value: JSON)] = []

    /// Whether the extras carry a recurrence series.
    var isSeries: Bool { recur != nil && (seriesDue != nil || mask != nil || !instances.isEmpty) }

    /// Parses the `taskwarrior:` extras (others are another format's); a value that is not JSON is kept as the
    /// string it is.
    /// - Complexity: O(size of the extras).
    init(_ extras: [Extra]) {
        for extra in extras where extra.key.hasPrefix(TaskwarriorKey.prefix) {
            let value = (try? JSONParser.parse(extra.value)) ?? .string(extra.value)
            switch extra.key {
            case TaskwarriorKey.project:
                noProject = value == .null
            case TaskwarriorKey.status:
                waiting = value == .string("waiting")
            case TaskwarriorKey.priority:
                priority = value
            case TaskwarriorKey.annotations:
                if case .array(let elements) = value { annotations = (annotations ?? []) + elements }
            case TaskwarriorKey.due:
                if case .string(let text) = value, case .success(let instant) = TaskwarriorDate.instant(text) {
                    seriesDue = instant
                }
            case TaskwarriorKey.recur:
                if case .string(let text) = value { recur = text }
            case TaskwarriorKey.mask:
                if case .string(let text) = value { mask = text }
            case TaskwarriorKey.template:
                if case .object(let object) = value { template = object }
            case TaskwarriorKey.instances:
                guard case .array(let elements) = value else { break }
                for case .object(let object) in elements { instances.append(object) }
            default:
                let name = String(extra.name)
                if let index = fields.firstIndex(where: { $0.name == name }) {
                    if case .array(let before) = fields[index].value, case .array(let more) = value {
                        fields[index].value = .array(before + more)
                    } else {
                        fields[index].value = value
                    }
                } else {
                    fields.append((name, value))
                }
            }
        }
    }
}
