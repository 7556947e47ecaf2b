/// Renders the open view's window as a table, with a title line above and a status line below.

import TasklsProtocol

/// Turns a `ViewModel` into lines of text in a `Style`.
struct TableRenderer {
    let style: Style
    let day: REPLCalendar
    /// List names by id, for the title line and the list column of smart groups.
    let listNames: [ListID: String]
    /// Smart list names by id, escaped.
    var smartListNames: [SmartListID: String] = [:]

    /// The title line, the rows and the status line.
    func render(_ view: ViewModel) -> [String] {
        var lines = [titleLine(view)]
        if view.state.isReady { lines += rows(view) }
        lines.append(statusLine(view))
        return lines
    }

    /// The view's name, count, sort, filter and sections in one line.
    func titleLine(_ view: ViewModel) -> String {
        var parts = [style.bold(viewName(view))]
        if let count = view.count, view.state.isReady {
            let items = view.rows.isEmpty && count == 0 ? 0 : count
            parts.append(grouped(items) + (items == 1 ? " row" : " rows"))
        }
        if view.sort.field != .manual || view.sort.direction == .descending {
            parts.append("sort: " + view.sort.field.rawValue + (view.sort.direction == .descending ? " desc" : ""))
        }
        let filter = FilterText.describe(view.filter)
        if !filter.isEmpty { parts.append("filter: " + filter) }
        if view.sections != .none { parts.append("group: " + SectionsText.word(view.sections)) }
        return parts.joined(separator: style.unicode ? " · " : " | ")
    }

    /// The name of the view's list or smart group.
    func viewName(_ view: ViewModel) -> String {
        switch view.source {
        case .list(let list): listNames[list] ?? list.description
        case .group(let group): group.title
        case .smartList(let smartList): smartListNames[smartList] ?? smartList.description
        }
    }

    /// The state of the view in one line: loading, empty and why, error, or which rows show (`rows 500–521 of
    /// 100,000`; with sections, first the numbers the table gave the tasks: `tasks 1–18 here · rows 500–521 of 600`).
    func statusLine(_ view: ViewModel) -> String {
        switch view.state {
        case .loading(let progress):
            return style.yellow("Loading" + style.ellipsis + " \(Int((progress * 100).rounded(.down)))%")
        case .error(let error):
            return style.red("Error: " + displayed(error.message) + (error.retryable ? " (retry with: retry)" : ""))
        default:
            break
        }
        let count = view.count ?? 0
        if count == 0 {
            if view.empty == .noMatches {
                return style.dim("No matches for " + FilterText.describe(view.filter))
                    + " " + style.dash + " clear the filter with: filter off"
            }
            return style.dim(view.list == nil ? "No tasks" : "No tasks " + style.dash + " add one with: add <title>")
        }
        if view.rows.isEmpty {
            return style.dim("No rows here (the view has \(grouped(count))) " + style.dash + " back with: top")
        }
        let first = view.start + 1
        let last = view.start + view.rows.count
        let range = style.unicode ? "–" : "-"
        var line = "rows \(grouped(first))" + range + "\(grouped(last)) of \(grouped(count))"
        // With sections, the numbers in the table are not the rows': say which they are.
        if view.numbersInWindow, let numbers = view.shownNumbers {
            line = "tasks \(grouped(numbers.first))" + range + "\(grouped(numbers.last)) here " + style.dot + " " + line
        }
        if last < count { line += " " + style.dash + " more with: next" }
        return style.dim(line)
    }

    /// One line per row of the window: items numbered as `ViewModel.itemNumber(atIndex:)` says (their rows in the
    /// view; with sections, from 1 in the window, headers not numbered), the checkbox, the title column
    /// (`titleCell`: indented by depth, with the fold marker and the subtask count), then the columns due,
    /// priority, list (smart groups) and tags, each starting at the same terminal cell on every row; titles are
    /// cut with an ellipsis so that the line fits `style.width` cells. A context row (in the view only as the
    /// ancestor of a matching item) is dim from its checkbox on.
    /// - Complexity: O(window × title length).
    func rows(_ view: ViewModel) -> [String] {
        let items = view.rows.filter { !$0.isHeader }
        let numberWidth = String(max(1, view.shownNumbers?.last ?? 1)).count
        let dues = view.rows.map { row in
            row.due.map { due in
                var described = day.describe(due: due, done: row.done)
                if row.repeats != nil { described.text += " " + style.repeatMark }
                return described
            }
        }
        let dueWidth = dues.map { DisplayWidth.of($0?.text ?? "") }.max() ?? 0
        let priorityWidth = items.map { DisplayWidth.of(priorityMark($0.priority)) }.max() ?? 0
        let showList = view.list == nil && view.sections != .list
        let listWidth = showList ? min(14, items.map { DisplayWidth.of(listName($0.list)) }.max() ?? 0) : 0
        var tagsWidth = min(24, items.map { DisplayWidth.of(tagText($0.tags)) }.max() ?? 0)
        let boxWidth = DisplayWidth.of(style.checkbox(false))
        func fixedWidth() -> Int {
            [dueWidth, priorityWidth, listWidth, tagsWidth].filter { $0 > 0 }.reduce(0) { $0 + $1 + 2 }
                + numberWidth + 1 + boxWidth + 1
        }
        if style.width - fixedWidth() < 16 { tagsWidth = 0 }
        let titleWidth = max(8, style.width - fixedWidth())
        let tree = view.rows.contains { $0.item.map { $0.depth > 0 || $0.hasChildren } ?? false }
        var lines: [String] = []
        for (offset, row) in view.rows.enumerated() {
            guard let item = row.item else {
                lines.append(header(row, width: style.width))
                continue
            }
            // A context row is dim throughout: its colors would say more than that it is only there as a parent.
            func painted(_ text: String, _ color: (String) -> String) -> String { item.context ? style.dim(text) : color(text) }
            let number = view.itemNumber(atIndex: view.start + offset)
            let box = painted(style.checkbox(item.done)) { item.done ? style.green($0) : $0 }
            var line = DisplayWidth.paddedLeft(String(number), toWidth: numberWidth) + " " + box + " "
                + titleCell(item, width: titleWidth, tree: tree)
            if dueWidth > 0 {
                let due = dues[offset]
                let text = DisplayWidth.padded(due?.text ?? "", toWidth: dueWidth)
                line += "  " + painted(text) { due?.overdue == true ? style.red($0) : $0 }
            }
            if priorityWidth > 0 { line += "  " + painted(DisplayWidth.padded(priorityMark(row.priority), toWidth: priorityWidth), style.yellow) }
            if listWidth > 0 { line += "  " + style.dim(style.fitted(listName(row.list), to: listWidth)) }
            if tagsWidth > 0 { line += "  " + painted(style.truncate(tagText(row.tags), to: tagsWidth), style.cyan) }
            lines.append(trimTrailing(line))
        }
        return lines
    }

    /// The fewest cells a title keeps in `titleCell` before the subtask count, then the indentation, give way.
    static let shortestTitle = 6

    /// The title column of an item row, exactly `width` cells: two cells of indentation per level of depth; when
    /// `tree` (the window shows subtasks or a task with some), the fold marker (`Style.foldMark`; a space for an
    /// item with no subtask in the view) and a space; the title, cut with an ellipsis to what is left; then, when
    /// the item has subtasks (`children`, whether or not the view shows them), their count as org-mode's cookie
    /// writes it, `[done/total]`. When fewer than `shortestTitle` cells would be left for the title, the count
    /// goes, then the indentation stops growing: the deepest rows line up at the deepest level that fits.
    /// The title of a done or context row is dim, and so is the count; without colors, the title of a context
    /// row is in parentheses instead: `(Plan trip)`.
    /// - Complexity: O(title length).
    func titleCell(_ item: ItemRow, width: Int, tree: Bool) -> String {
        let cookie = item.children > 0 ? "[\(item.children - item.openChildren)/\(item.children)]" : ""
        let marker = tree ? (item.hasChildren ? style.foldMark(collapsed: item.collapsed) : " ") + " " : ""
        let bracketed = item.context && !style.color
        var indent = 2 * item.depth
        var counted = !cookie.isEmpty
        func room() -> Int {
            width - indent - DisplayWidth.of(marker) - (bracketed ? 2 : 0) - (counted ? 1 + DisplayWidth.of(cookie) : 0)
        }
        if room() < Self.shortestTitle { counted = false }
        if room() < Self.shortestTitle { indent = max(0, width - DisplayWidth.of(marker) - (bracketed ? 2 : 0) - Self.shortestTitle) }
        var title = style.truncate(displayed(item.title), to: max(1, room()))
        if bracketed { title = "(" + title + ")" }
        var cell = String(repeating: " ", count: indent) + (item.context ? style.dim(marker) : marker)
            + (item.done || item.context ? style.dim(title) : title)
        if counted { cell += " " + style.dim(cookie) }
        let used = indent + DisplayWidth.of(marker) + DisplayWidth.of(title) + (counted ? 1 + DisplayWidth.of(cookie) : 0)
        return cell + String(repeating: " ", count: max(0, width - used))
    }

    /// A section header: `── Today (2) ────`.
    func header(_ row: Row, width: Int) -> String {
        let label = " " + style.truncate(displayed(row.title), to: max(8, min(width, 60) - 16)) + " (\(grouped(row.count))) "
        let lead = String(repeating: style.rule, count: 2)
        let tail = String(repeating: style.rule, count: max(2, min(width, 60) - DisplayWidth.of(label) - 2))
        return style.bold(lead + label + tail)
    }

    /// The name of a list (its id while the overview does not have it; nothing for no list).
    func listName(_ id: ListID?) -> String {
        guard let id else { return "" }
        return listNames[id] ?? id.description
    }

    func priorityMark(_ priority: Priority) -> String {
        switch priority {
        case .high: "!!!"
        case .medium: "!!"
        case .low: "!"
        case .none: ""
        }
    }

    func tagText(_ tags: [String]) -> String { tags.map { "#" + displayed($0) }.joined(separator: " ") }
}

/// `line` without trailing spaces (so plain output has none to trip a diff).
func trimTrailing(_ line: String) -> String {
    var line = line
    while line.hasSuffix(" ") { line.removeLast() }
    return line
}

/// `value` with thousands separators: 100,000.
func grouped(_ value: Int) -> String {
    let digits = String(abs(value))
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}
