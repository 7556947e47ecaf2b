// Notes as annotations: the kept annotations as they were while the notes are theirs, else one annotation per
// line of the notes, reusing a kept annotation (with its time) for a line that is its description.

import Domain
import Wire

extension TaskwarriorWriter {
    /// The annotations to write for the task's notes.
    ///
    /// Notes that are the kept annotations' descriptions, one per line, give the kept annotations back as they
    /// were. Otherwise each non-empty line is an annotation: a kept one whose description it is (the first
    /// unused, with its own `entry`), else a new one whose `entry` is the task's modification time, or a second
    /// after the annotation before it, so the lines keep their order (Taskwarrior orders annotations by time and
    /// drops empty ones: empty lines are counted as lost).
    mutating func annotations(_ task: ExchangeTask, kept: TaskwarriorKept) -> [JSON] {
        let keptAnnotations = kept.annotations ?? []
        let descriptions = keptAnnotations.map { annotation -> String? in
            guard case .string(let text)? = annotation["description"] else { return nil }
            return text
        }
        if task.notes.isEmpty { return [] }
        if !keptAnnotations.isEmpty, descriptions.allSatisfy({ $0 != nil }),
           descriptions.map({ $0! }).joined(separator: "\n") == task.notes {
            return keptAnnotations
        }
        var used = [Bool](repeating: false, count: keptAnnotations.count)
        var result: [JSON] = []
        var last: Int64?
        let base = (task.modifiedAt ?? task.createdAt ?? Timestamp(milliseconds: 0)).milliseconds / 1000
        var droppedEmpty = false
        for line in task.notes.split(separator: "\n", omittingEmptySubsequences: false) {
            guard !line.isEmpty else {
                droppedEmpty = true
                continue
            }
            let text = String(line)
            if let index = descriptions.indices.first(where: { !used[$0] && descriptions[$0] == text }) {
                used[index] = true
                result.append(keptAnnotations[index])
                if case .string(let entry)? = keptAnnotations[index]["entry"],
                   case .success(let instant) = TaskwarriorDate.instant(entry) {
                    last = instant.milliseconds / 1000
                }
                continue
            }
            let seconds = max(base, (last ?? base - 1) + 1)
            last = seconds
            result.append(.object(["entry": .string(TaskwarriorDate.text(Timestamp(milliseconds: seconds * 1000))),
                                   "description": .string(text)]))
        }
        if droppedEmpty { losses.add("empty lines of notes", because: "Taskwarrior drops empty annotations") }
        return result
    }
}
