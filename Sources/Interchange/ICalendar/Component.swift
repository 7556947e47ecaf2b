// Component: iCalendar's nesting (`BEGIN:NAME` … `END:NAME`) built from content lines, with the structure's
// problems: a BEGIN without its END, an END without its BEGIN, a property outside every calendar.

extension ICalendarFormat {
    /// One component: its properties and the components inside it, in order.
    struct Component {
        /// Its name in upper case (`VCALENDAR`, `VTODO`, `VALARM`, `DAYLIGHT`, `X-…`).
        let name: String
        /// The physical line its `BEGIN` is on.
        let line: Int
        /// The index of its `BEGIN` among the stream's content lines.
        let start: Int
        /// The indexes of its lines among the stream's content lines, `BEGIN` to `END`.
        var span: Range<Int>
        /// Its properties, in order.
        var properties: [ContentLine] = []
        /// The components inside it, in order.
        var components: [Component] = []
        /// The lines inside it (a task's, at any depth) that are not content lines.
        var malformed: [MalformedLine] = []

        /// Its first property named `name`.
        func property(_ name: String) -> ContentLine? { properties.first { $0.name == name } }
    }

    /// A stream's calendars and the content lines they were read from.
    struct Structure {
        /// The top-level components (`VCALENDAR`s in a file), in order.
        var components: [Component] = []
        /// Every content line as written, unfolded (a component's text is `raw[span]`).
        var raw: [String] = []
        /// What is wrong with the structure: (line, message).
        var problems: [MalformedLine] = []

        /// A component's content lines as written, `BEGIN` to `END`, joined by line feeds (a component kept whole).
        func text(of component: Component) -> String {
            raw[component.span].joined(separator: "\n")
        }
    }

    /// Components that hold the properties of one thing: another such `BEGIN` inside one means its `END` is missing.
    private static let leafComponents: Set<String> = ["VTODO", "VEVENT", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]
    /// What may not begin inside a leaf component.
    private static let outerComponents: Set<String> = ["VCALENDAR", "VTODO", "VEVENT", "VJOURNAL", "VFREEBUSY",
                                                        "VTIMEZONE"]

    /// The components of a stream of logical lines, or what is wrong with its structure.
    ///
    /// A stream must start with `BEGIN:` and `top` (`VCALENDAR` for a file; else the only problem says so) and hold
    /// nothing but such components; a line that is not a content line is a problem of the task it is in (the task
    /// is invalid) or, outside every task, of the structure.
    /// - Complexity: O(number of lines).
    static func structure(of lines: [LogicalLine], top: String = "VCALENDAR") -> Structure {
        var result = Structure()
        guard let first = lines.first else {
            result.problems.append(MalformedLine(line: 0, message: "is empty: an iCalendar file starts with BEGIN:VCALENDAR"))
            return result
        }
        let opening = first.text.uppercased()
        guard opening.hasPrefix("BEGIN:" + top),
              opening.dropFirst(6 + top.count).allSatisfy({ $0 == " " || $0 == "\t" }) else {
            result.problems.append(MalformedLine(line: first.line,
                message: "is not an iCalendar file: it starts with \(quoted(first.text)), not BEGIN:\(top)"))
            return result
        }
        var stack: [Component] = []
        func unclosed(_ component: Component) {
            result.problems.append(MalformedLine(line: component.line,
                                                 message: "BEGIN:\(component.name) has no END:\(component.name)"))
        }
        for logical in lines {
            let line: ContentLine
            switch parse(logical) {
            case .success(let parsed): line = parsed
            case .failure(let malformed):
                if let task = stack.lastIndex(where: { $0.name == "VTODO" }) {
                    stack[task].malformed.append(malformed)
                } else {
                    result.problems.append(malformed)
                }
                continue
            }
            let index = result.raw.count
            result.raw.append(line.raw)
            switch line.name {
            case "BEGIN":
                let name = line.trimmedValue.uppercased()
                if outerComponents.contains(name), let open = stack.last, leafComponents.contains(open.name) {
                    unclosed(stack.removeLast())
                }
                if name == "VCALENDAR", let open = stack.last, open.name == "VCALENDAR" {
                    unclosed(stack.removeLast())
                }
                if stack.isEmpty, name != top {
                    result.problems.append(MalformedLine(line: line.line,
                        message: "BEGIN:\(name) is outside BEGIN:\(top) … END:\(top)"))
                }
                stack.append(Component(name: name, line: line.line, start: index, span: index..<(index + 1)))
            case "END":
                let name = line.trimmedValue.uppercased()
                guard let position = stack.lastIndex(where: { $0.name == name }) else {
                    result.problems.append(MalformedLine(line: line.line, message: "END:\(name) has no BEGIN:\(name) before it"))
                    continue
                }
                while stack.count > position + 1 { unclosed(stack.removeLast()) }
                var closed = stack.removeLast()
                closed.span = closed.start..<(index + 1)
                if !stack.isEmpty {
                    stack[stack.count - 1].components.append(closed)
                } else if closed.name == top {
                    result.components.append(closed)
                }
            default:
                if stack.isEmpty {
                    result.problems.append(MalformedLine(line: line.line,
                        message: "\(line.name) is outside BEGIN:\(top) … END:\(top)"))
                } else {
                    stack[stack.count - 1].properties.append(line)
                }
            }
        }
        for component in stack { unclosed(component) }
        return result
    }
}
