// TodoTxtWriter: an exchange document as todo.txt, one line per task in the document's order, with what the format
// cannot say counted as losses; each line is read back to check that its title, list and tags survive.

import Domain

/// Writes todo.txt text (see `TodoTxtFormat`).
struct TodoTxtWriter {
    /// The user's zone (the days of dates and times).
    let options: WriteOptions

    /// Writes every task, one line each, each line ending with LF.
    /// - Complexity: O(size of the document).
    func write(_ document: ExchangeDocument) -> ExchangeWriting {
        var losses = LossTally()
        var text = ""
        for task in document.tasks {
            text += line(for: task, losses: &losses)
            text += "\n"
        }
        return ExchangeWriting(text: text, losses: losses.losses)
    }

    /// The line of one task, its losses counted in `losses`.
    func line(for task: ExchangeTask, losses: inout LossTally) -> String {
        var head: [String] = []
        let completion = task.completedAt.map { day(of: $0, what: "completion", losses: &losses) }
        let creation = task.createdAt.map { day(of: $0, what: "creation", losses: &losses) }
        let keptLetter = task.extras.last { $0.key == "todotxt:pri" }?.value
        let letter = TodoTxtValues.letter(for: task.priority, kept: keptLetter)
        if task.done {
            head.append("x")
            if let completion { head.append(completion.iso8601) }
            if let creation {
                if completion != nil {
                    head.append(creation.iso8601)
                } else {
                    losses.add("creation dates of done tasks without a completion date",
                               because: "todo.txt writes a done task's creation date after its completion date")
                }
            }
        } else {
            if let letter { head.append("(\(letter))") }
            if let creation { head.append(creation.iso8601) }
        }
        let title = TodoTxtLine.tokens(of: task.title).joined(separator: " ")
        let titleWords = title.split(separator: " ")
        var before: [String] = []
        var after: [String] = []
        var written: Set<String> = Set(titleWords.map(String.init))
        if let list = task.list {
            let token = "+" + TodoTxtBody.written(list)
            let firstProject = titleWords.first { TodoTxtLine.kind(of: $0) == .project }
            if firstProject == nil {
                after.append(token)
            } else if String(firstProject!) != token {
                before.append(token)
            }
            written.insert(token)
        }
        var pairs: [String] = []
        var foreign = false
        for extra in task.extras {
            guard extra.format == "todotxt" else {
                foreign = true
                continue
            }
            let name = extra.name
            if name == "project" {
                let token = "+" + extra.value
                if TodoTxtWriter.isOneWord(token), TodoTxtLine.kind(of: token) == .project,
                   written.insert(token).inserted {
                    after.append(token)
                }
                continue
            }
            if name == "pri" || ((name == "rec" || name == "rrule") && task.repeatRule != nil) { continue }
            let pair = name + ":" + extra.value
            guard TodoTxtWriter.isOneWord(pair), case .pair(let colon) = TodoTxtLine.kind(of: pair),
                  colon == name.utf8.count, !TodoTxtBody.isKnown(name.utf8) || name == "rec" || name == "rrule" else {
                losses.add("todo.txt fields that are no longer key:value pairs",
                           because: "todo.txt values have no spaces or colons")
                continue
            }
            pairs.append(pair)
        }
        if foreign {
            losses.add("fields kept from other formats", because: "todo.txt keeps only its own key:value pairs")
        }
        for tag in task.tags {
            let token = "@" + TodoTxtBody.written(tag)
            if written.insert(token).inserted { after.append(token) }
        }
        after.append(contentsOf: pairs)
        if let due = task.due { after.append("due:" + dueDay(due, losses: &losses).iso8601) }
        if let rule = task.repeatRule {
            if let recurrence = TodoTxtValues.recurrence(of: rule) {
                after.append("rec:" + recurrence)
            } else {
                after.append("rrule:" + TodoTxtValues.ruleText(of: rule))
            }
        }
        if task.done, let letter { after.append("pri:" + String(letter)) }
        if let parent = task.parentUID { after.append("parent:" + TodoTxtValues.encoded(parent)) }
        if let uid = task.uid { after.append("uid:" + TodoTxtValues.encoded(uid)) }
        let line = (head + before + (title.isEmpty ? [] : [title]) + after).joined(separator: " ")
        countLosses(of: task, line: line, head: head, losses: &losses)
        return line
    }

    /// Whether `text` is one word of a line (no white space in it).
    static func isOneWord(_ text: String) -> Bool { !text.utf8.contains(where: TodoTxtLine.isSpace) }

    /// The day of an instant in the user's zone; a time of day other than midnight is counted as lost.
    private func day(of instant: Timestamp, what: String, losses: inout LossTally) -> CalendarDate {
        let reading = options.localZone.localReading(of: instant)
        if reading.millisecond != 0 {
            losses.add("\(what) times of day", because: "todo.txt keeps only the \(what) date")
        }
        return reading.date
    }

    /// The day of a due: a day as it is, a time as its day in the user's zone (the time counted as lost).
    private func dueDay(_ due: Due, losses: inout LossTally) -> CalendarDate {
        switch due {
        case .date(let date):
            return date
        case .dateTime(let instant, _):
            losses.add("due times", because: "todo.txt dues are days: written as the day")
            return options.localZone.localReading(of: instant).date
        }
    }

    /// Counts what the line does not say: notes, alerts, history, the modification time, and a title, list or
    /// tags that read back otherwise (white space, words todo.txt reads as +project, @context or key:value).
    private func countLosses(of task: ExchangeTask, line: String, head: [String], losses: inout LossTally) {
        if !task.notes.isEmpty { losses.add("notes", because: "todo.txt has one line per task") }
        if !task.alerts.isEmpty { losses.add("alerts", because: "todo.txt has no alerts") }
        if task.occurrences != .none {
            losses.add("repeat history", because: "todo.txt keeps no history of a repeating task")
        }
        if task.modifiedAt != nil { losses.add("modification times", because: "todo.txt has none") }
        let back = TodoTxtLine(line[...])
        let body = TodoTxtBody(back)
        var headBack: [String] = back.done ? ["x"] : back.priority.map { ["(\(Character(Unicode.Scalar($0))))"] } ?? []
        for date in [back.completionDate, back.creationDate] { if let date { headBack.append(back.text(date)) } }
        if body.title != task.title || headBack != head {
            losses.add("titles that read back otherwise",
                       because: "todo.txt reads runs of white space as one space, +word, @word and key:value "
                           + "as a project, a context and a field, and x, (A) or a date first as a done mark, a "
                           + "priority or a date")
        }
        if body.list != task.list {
            losses.add("list names that read back otherwise",
                       because: "todo.txt writes spaces in a +project as _, reads _ as a space, and reads the "
                           + "first +project as the list")
        }
        if body.tags != task.tags {
            losses.add("tags that read back otherwise",
                       because: "todo.txt writes spaces in a @context as _ and reads _ as a space")
        }
    }
}
