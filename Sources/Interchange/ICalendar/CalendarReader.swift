// CalendarReader: a whole iCalendar stream read into a document: each VCALENDAR a list, each VTODO a task, then the
// checks across tasks (duplicate UIDs, cycles of parents) and the problems gathered, refused or skipped.

import Domain

extension ICalendarFormat {
    /// Reads a stream (see `ICalendarFormat.read`).
    struct CalendarReader {
        let options: ReadOptions

        /// The calendar properties a list's fields come from, and those that say nothing taskls would keep.
        static let listProperties: Set<String> = [
            "X-WR-CALNAME", "NAME", "COLOR", "X-APPLE-CALENDAR-COLOR", "X-TASKLS-ICON", "VERSION", "PRODID", "CALSCALE",
            "METHOD",
        ]

        func read(_ text: String) throws(ExchangeFailure) -> ExchangeReading {
            let structure = ICalendarFormat.structure(of: ICalendarFormat.unfold(text))
            guard structure.problems.isEmpty else {
                throw Self.failure(structure.problems.map { problem($0.line, nil, $0.message) })
            }
            var losses = LossTally()
            var lists: [ExchangeList] = []
            var read: [ReadTask] = []
            for calendar in structure.components {
                let list = readList(calendar, &losses)
                if let list {
                    if let index = lists.firstIndex(where: { $0.name == list.name }) {
                        lists[index].color = lists[index].color ?? list.color
                        lists[index].icon = lists[index].icon ?? list.icon
                    } else {
                        lists.append(list)
                    }
                }
                let definitions = calendar.components.filter { $0.name == "VTIMEZONE" }
                var byZone: [String: Component] = [:]
                for definition in definitions {
                    if let tzid = definition.property("TZID")?.trimmedValue, byZone[String(tzid)] == nil {
                        byZone[String(tzid)] = definition
                    }
                }
                var reader = TaskReader(options: options, structure: structure, list: list?.name, definitions: byZone,
                                        zones: ZoneNames(definitions: definitions, database: options.zones),
                                        losses: losses)
                for component in calendar.components {
                    switch component.name {
                    case "VTODO":
                        if let task = reader.read(component) { read.append(task) }
                    case "VTIMEZONE":
                        continue
                    case "VEVENT":
                        reader.losses.add("events (VEVENT)", because: "taskls imports tasks (VTODO) only")
                    case "VJOURNAL":
                        reader.losses.add("journal entries (VJOURNAL)", because: "taskls imports tasks (VTODO) only")
                    default:
                        reader.losses.add("\(component.name) components", because: "taskls imports tasks (VTODO) only")
                    }
                }
                losses = reader.losses
            }
            return try check(read, lists: lists, losses: losses.losses)
        }

        /// A calendar's list: named by X-WR-CALNAME, else NAME (nil without either); COLOR, else
        /// X-APPLE-CALENDAR-COLOR, its color; X-TASKLS-ICON its icon. Its other properties are counted as lost, once
        /// for each of its tasks.
        private func readList(_ calendar: Component, _ losses: inout LossTally) -> ExchangeList? {
            let tasks = calendar.components.filter { $0.name == "VTODO" }.count
            for line in calendar.properties where !Self.listProperties.contains(line.name) {
                for _ in 0..<tasks {
                    losses.add("their list's calendar property \(line.name)", because: "taskls keeps a list's name, color and icon")
                }
            }
            if calendar.property("COLOR") != nil, calendar.property("X-APPLE-CALENDAR-COLOR") != nil {
                for _ in 0..<tasks {
                    losses.add("their list's X-APPLE-CALENDAR-COLOR beside its COLOR", because: "taskls keeps one color a list")
                }
            }
            let nameLine = calendar.property("X-WR-CALNAME") ?? calendar.property("NAME")
            guard let name = nameLine.map({ TextValue.unescape($0.value) }), !name.isEmpty else { return nil }
            let color = (calendar.property("COLOR") ?? calendar.property("X-APPLE-CALENDAR-COLOR"))
                .map { TextValue.unescape($0.value) }
            let icon = calendar.property("X-TASKLS-ICON").map { TextValue.unescape($0.value) }
            return ExchangeList(name: name, color: color, icon: icon)
        }

        /// The checks across tasks (a UID twice, a cycle of parents), then the document, or every problem.
        private func check(_ read: [ReadTask], lists: [ExchangeList], losses: [ExchangeLoss]) throws(ExchangeFailure)
            -> ExchangeReading {
            var tasks = read
            var skipped: [ExchangeProblem] = []
            if options.skipInvalid {
                skipped = tasks.flatMap(\.problems)
                tasks.removeAll { !$0.problems.isEmpty }
            }
            markDuplicates(&tasks)
            markCycles(&tasks)
            if options.skipInvalid {
                skipped += tasks.flatMap(\.problems)
                tasks.removeAll { !$0.problems.isEmpty }
            } else {
                let problems = tasks.flatMap(\.problems)
                guard problems.isEmpty else { throw Self.failure(problems) }
            }
            var tally = LossTally()
            for loss in losses {
                for _ in 0..<loss.count { tally.add(loss.what, because: loss.reason) }
            }
            for task in tasks {
                for loss in task.losses { tally.add(loss.what, because: loss.reason) }
            }
            let uids = Set(tasks.compactMap(\.task.uid))
            for index in tasks.indices where !options.keepsParentsOutside {
                guard let parent = tasks[index].task.parentUID, !uids.contains(parent),
                      let (extra, position) = tasks[index].parentExtra else { continue }
                tasks[index].task.parentUID = nil
                tasks[index].task.extras.insert(extra, at: position)
            }
            return ExchangeReading(document: ExchangeDocument(lists: lists, tasks: tasks.map(\.task)),
                                   skipped: skipped.sorted { $0.line < $1.line }, losses: tally.losses)
        }

        /// A problem on each task whose UID an earlier task has.
        private func markDuplicates(_ tasks: inout [ReadTask]) {
            var lines: [String: Int] = [:]
            for index in tasks.indices {
                guard let uid = tasks[index].task.uid else { continue }
                if let first = lines[uid] {
                    tasks[index].problems.append(problem(tasks[index].uidLine, "UID",
                        "\(quoted(uid)) appears twice (lines \(first) and \(tasks[index].uidLine))"))
                } else {
                    lines[uid] = tasks[index].uidLine
                }
            }
        }

        /// A problem on each task that is its own ancestor through RELATED-TO parents.
        /// - Complexity: O(tasks).
        private func markCycles(_ tasks: inout [ReadTask]) {
            var byUID: [String: Int] = [:]
            for (index, read) in tasks.enumerated() {
                if let uid = read.task.uid, byUID[uid] == nil { byUID[uid] = index }
            }
            var state = [UInt8](repeating: 0, count: tasks.count)
            for start in tasks.indices where state[start] == 0 {
                var path: [Int] = []
                var current: Int? = start
                while let index = current, state[index] == 0 {
                    state[index] = 1
                    path.append(index)
                    current = tasks[index].task.parentUID.flatMap { byUID[$0] }
                }
                if let index = current, state[index] == 1, let position = path.firstIndex(of: index) {
                    let cycle = Array(path[position...])
                    for (offset, member) in cycle.enumerated() {
                        let chain = (cycle[offset...] + cycle[..<offset] + [member]).map { tasks[$0].task.uid ?? "" }
                        tasks[member].problems.append(problem(tasks[member].parentLine, "RELATED-TO",
                            "\(quoted(tasks[member].task.uid ?? "")) is its own ancestor (\(chain.joined(separator: " → ")))"))
                    }
                }
                for index in path { state[index] = 2 }
            }
        }

        private func problem(_ line: Int, _ field: String?, _ message: String) -> ExchangeProblem {
            ExchangeProblem(file: options.fileName, line: line, field: field, message: message)
        }

        /// A failure listing the first `ExchangeFailure.limit` problems in line order.
        static func failure(_ problems: [ExchangeProblem]) -> ExchangeFailure {
            let sorted = problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
                .map(\.element)
            return ExchangeFailure(problems: Array(sorted.prefix(ExchangeFailure.limit)),
                                   more: max(0, sorted.count - ExchangeFailure.limit))
        }
    }
}
