/// The help that is not one command's: the short index `help` prints, and the topics `help dates`,
/// `help filters`, `help entry`, `help subtasks` and `help keys`.

/// The help index and topics.
enum HelpText {
    /// The topics `help TOPIC` knows, with what each explains.
    static let topics: [(name: String, summary: String)] = [
        ("entry", "the words of add and edit: ^due, !priority, #tag, @list, // notes, escapes"),
        ("dates", "the dates and times ^ and due: accept"),
        ("filters", "the words of filter"),
        ("subtasks", "tasks under tasks: how the table shows them, and the commands that make and fold them"),
        ("repeat", "repeating tasks: the words of a repeat, what done and skip do"),
        ("keys", "the line editor's keys"),
    ]

    /// What ROW means, as every command taking one reads it.
    static let rowLine = "ROW is a task's number as the table shows it: its row in the view (500, as goto and the footer count), or"
        + " in a view with sections its number in the window (from 1 at the top, headers not numbered); also a range (3-5) or a"
        + " task id (i42)."

    /// The short index: each area with its commands on a line, the aliases, the topics and how to get more.
    static func index(style: Style) -> [String] {
        var areas: [(String, [String])] = []
        for command in Commands.all {
            if areas.last?.0 == command.area {
                areas[areas.count - 1].1.append(command.names[0])
            } else {
                areas.append((command.area, [command.names[0]]))
            }
        }
        let areaWidth = areas.map { DisplayWidth.of($0.0) }.max() ?? 0
        var lines = style.wrapped(style.bold("Commands") + " (help COMMAND explains one; help all explains every one)")
        for (area, names) in areas {
            lines += style.tableRow(area, names.joined(separator: " "), keyWidth: areaWidth)
        }
        let aliases = Commands.all.flatMap { command in command.names.dropFirst().map { $0 + "=" + command.names[0] } }
        lines += style.wrapped(style.bold("Aliases") + "  " + aliases.joined(separator: " "), indent: 9)
        lines += style.wrapped(style.bold("Topics") + "   " + topics.map { "help " + $0.name }.joined(separator: ", "), indent: 9)
        lines += style.wrapped(rowLine)
        return lines
    }

    /// The lines of a topic, or nil when `name` is none.
    static func topic(_ name: String, style: Style) -> [String]? {
        switch name {
        case "dates", "date", "due": dates(style: style)
        case "filters", "filter-words": filters(style: style)
        case "entry", "grammar", "words": entry(style: style)
        case "subtasks", "subtask", "tree": subtasks(style: style)
        case "repeat", "repeats", "repeating", "every": repeating(style: style)
        case "keys", "keyboard": keys(style: style)
        default: nil
        }
    }

    /// A topic: its title, a table of words and what they mean, then lines of prose (each wrapped on a terminal).
    static func page(title: String, table: [(String, String)], then prose: [String], style: Style) -> [String] {
        let keyWidth = table.map { DisplayWidth.of($0.0) }.max() ?? 0
        return style.wrapped(title) + table.flatMap { style.tableRow($0.0, $0.1, keyWidth: keyWidth) } + prose.flatMap { style.wrapped($0) }
    }

    /// `help dates`: the due phrases `^` and `due:` take (protocol.md, "Due phrases").
    static func dates(style: Style) -> [String] {
        page(title: style.bold("Dates") + " (after ^ or due: in add and edit, after due<, due>, due: in filter)", table: [
            ("today, tod", "tomorrow, tom, tmr          yesterday"),
            ("mon ... sun", "the next such day (never today); also monday, tues, thurs ..."),
            ("next week", "next Monday"),
            ("+3  -2  +2w  +1m", "days (d), weeks (w) or months (m) from today; also 3d, 2w"),
            ("in 3 days", "in N day(s), week(s), month(s)"),
            ("2026-12-01", "that day;   dec 1, 1 dec, december 1st: the next such day"),
            ("5pm  5:30pm  17:30", "the next time the clock shows it (today, else tomorrow)"),
            ("fri 5pm", "a day, then a time: tomorrow 9:30, 2026-12-01 17:30"),
            ("2026-12-01T17:30", "that time here;  ...Z or ...+05:00: that instant"),
            ("none, clear, -", "no due (edit: clears it)"),
        ], then: [
            "Examples: add Call Ann ^fri 5pm    edit 3 ^in 2 weeks    edit 3 due:none    filter due<fri",
            "The table says dues relative to today: today, tomorrow 09:30, in 3 days, 2 days ago, then the date.",
        ], style: style)
    }

    /// `help filters`: the words of `filter` (protocol.md, "text/parseFilter").
    static func filters(style: Style) -> [String] {
        page(title: style.bold("Filter words") + " (filter WORDS; filter off shows everything again)", table: [
            ("milk", "text in the title or notes (ignoring case and accents); several words: together"),
            ("#home", "tagged home (several: all of them);  #home|#work: either"),
            ("!high  !high+", "at least that priority (!, !!, !!!, !low, !medium, !high)"),
            ("due<fri", "due before; also due<=, due>, due>=, and due:fri or ^fri for that day (help dates)"),
            ("done  open", "done, or not done"),
            ("\\#42  \\done", "a backslash keeps a word as text"),
        ], then: [
            "Examples: filter #home !high+ due<fri open    filter milk    filter off",
            "Warnings (overdue, @list, an unknown word after !) leave the filter as it was; open overdue opens the group.",
        ], style: style)
    }

    /// `help entry`: the quick-entry words of `add` and `edit`, with examples.
    static func entry(style: Style) -> [String] {
        page(title: style.bold("Quick entry") + " (the words of add and edit; the server reads them, as in every editor)", table: [
            ("^fri  due:fri", "the due (help dates); due:none clears it on edit"),
            ("!  !!  !!!", "priority low, medium, high;  !low !medium !high !none, !l !m !h !n"),
            ("#home", "a tag (edit adds it; untag ROW TAG takes one off)"),
            ("@Work  @\"Work stuff\"", "the list: add there; on edit, move the task there"),
            ("// two litres", "notes: everything after //"),
            ("every week  +1w", "a repeat (help repeat): done then moves the task to its next due"),
            ("remind 1h before", "a reminder: also remind at 9:00 (on the due's day), remind the day before at 18:00, remind fri 9:00; remind none clears them"),
            ("\\#42 \\!urgent \\@x", "a backslash keeps a word as text: add Fix issue \\#42"),
            ("any other word", "the title"),
        ], then: [
            "Examples:",
            "  add Buy milk ^fri !high #home @Groceries // two litres",
            "  edit 3 Call Ann back ^tomorrow 9:30",
            "  prio 3 high    untag 3 home    (the old !0-!3 and -#tag are gone)",
            "A word the server cannot read (!urgent, ^soon, @Nowhere) is a warning, and nothing is stored.",
        ], style: style)
    }

    /// `help subtasks`: the tree in the table (indentation, fold markers, counts, context rows) and the commands on it.
    static func subtasks(style: Style) -> [String] {
        page(title: style.bold("Subtasks") + " (a task's subtasks are listed under it, indented; 15 levels at most)", table: [
            (style.foldMark(collapsed: false) + " Plan trip", "a task whose subtasks show below it: fold ROW hides them"),
            (style.foldMark(collapsed: true) + " Plan trip", "a folded task: unfold ROW shows its subtasks again"),
            ("Plan trip [1/3]", "its subtasks: 1 of 3 done"),
            (style.color ? "a dim row" : "(Plan trip)", "in a filter or a smart group: the parent of a task that matches, shown so it sits under it"),
            ("add --under 3 Book flights", "a new task, the last subtask of task 3 (in 3's list)"),
            ("add > Book flights", "a new task, the last subtask of the task the last plain add made"),
            ("indent 4  outdent 4", "under the task above it at its level / up a level, after its parent's subtasks"),
            ("mv 4 under 2", "task 4 and its subtasks, the last under task 2"),
            ("mv 4 to top", "task 4 and its subtasks to the top level, last in its list"),
            ("mv 4 2", "to row 2 with its subtasks, at the least depth that fits there"),
            ("fold 2  fold all", "hide subtasks in this view (unfold 2, unfold all show them)"),
        ], then: [
            "Marking a task done marks its subtasks done; rm deletes them with it; undo brings back either.",
            "Sorted views keep the tree: subtasks stay under their parent, sorted among themselves.",
        ], style: style)
    }

    /// `help repeat`: the repeat phrases of add, edit and repeat (protocol.md, "Repeat phrases"), and what done and
    /// skip do to a repeating task.
    static func repeating(style: Style) -> [String] {
        page(title: style.bold("Repeating tasks") + " (after add, edit or repeat ROW; a repeating task has a due, marked " + style.repeatMark + ")", table: [
            ("every day  every 3 days", "also every other week, every 2 months, every year"),
            ("every mon,wed", "those weekdays;  every weekday (mon to fri), every weekend"),
            ("every 2 weeks on mon,wed", "every other week, on those days"),
            ("every month on the 15th", "also on the 1st and 15th, on the last day"),
            ("every month on the last fri", "also on the 2nd mon, on the first and third tue"),
            ("every year on dec 25", "that date every year"),
            ("... after done", "counted from the day it is done, not from its due: every 3 days after done"),
            ("+1w  ++1m  .+3d", "org-mode's cookies: from the due, the next one in the future, from done"),
        ], then: [
            "done ROW moves a repeating task to its next due (its done subtasks start again); when the repeat has ended, it is done.",
            "skip ROW moves it on without doing it. repeat ROW off stops it. show ROW says its repeat and its history. undo undoes either.",
            "Without a due, add gives the first day of the repeat: add Water plants every 3 days after done (due today).",
            "A month's 31st skips shorter months: say on the last day for the month's end.",
        ], style: style)
    }

    /// `help keys`: every key the line editor binds (`LineEditor.bindings`).
    static func keys(style: Style) -> [String] {
        page(title: style.bold("Line editing keys"), table: LineEditor.bindings.map { ($0.names, $0.action) },
             then: ["Typed and pasted text goes in at the cursor."], style: style)
    }
}
