/// Domain records to protocol values: items (in full and as rows), lists, header rows and the overview.

import Domain
import QuickEntry
import TasklsProtocol
import Wire

extension TasklsProtocol.Item {
    /// `item` in full, as `items/get` and the mutation results give it, with its subtasks' counts; a due time read
    /// in `calendar`'s zone too.
    init(_ item: Domain.Item, subtasks: SubtaskCount, in calendar: ClientCalendar) {
        self.init(
            id: TasklsProtocol.ItemID(item.id), list: TasklsProtocol.ListID(item.list),
            parent: item.parent.map(TasklsProtocol.ItemID.init), title: item.title, notes: item.notes,
            done: item.done, completed: item.completedAt?.iso8601, due: item.due?.iso8601, dueLocal: calendar.localReading(of: item.due),
            priority: TasklsProtocol.Priority(item.priority), tags: item.tags,
            children: subtasks.total, openChildren: subtasks.open, created: item.createdAt.iso8601,
            modified: item.modifiedAt.iso8601, revision: item.revision, repeat: item.repeatRule.map(Repeat.init),
            occurrences: TasklsProtocol.Occurrences(item.occurrences), alerts: item.alerts.map(TasklsProtocol.Alert.init),
            uid: item.uid, extras: item.extras.map { ItemExtra(key: $0.key, value: $0.value) })
    }
}

extension Repeat {
    /// A rule as the wire writes it: its canonical RRULE text and its anchor.
    init(_ rule: RepeatRule) {
        let from: RepeatAnchor = switch rule.anchor {
        case .due: .due
        case .dueFuture: .dueFuture
        case .completion: .completion
        }
        self.init(rule: rule.rrule, from: from, text: RepeatWords.text(rule))
    }
}

extension TasklsProtocol.Occurrences {
    /// An item's history as the wire writes it.
    init(_ history: Domain.Occurrences) {
        self.init(completed: history.completed, skipped: history.skipped, recent: history.recent.map { occurrence in
            TasklsProtocol.Occurrence(due: occurrence.due.iso8601, outcome: occurrence.outcome == .completed ? .completed : .skipped,
                                      at: occurrence.at.iso8601)
        })
    }
}

extension ItemRow {
    /// `item` as a row of a view, where `facts` place it: without its notes (a window's size does not depend on
    /// them); a due time read in `calendar`'s zone too.
    init(_ item: Domain.Item, _ facts: TreeFacts, in calendar: ClientCalendar) {
        self.init(
            id: TasklsProtocol.ItemID(item.id), list: TasklsProtocol.ListID(item.list),
            parent: item.parent.map(TasklsProtocol.ItemID.init), depth: facts.depth, title: item.title, done: item.done,
            due: item.due?.iso8601, dueLocal: calendar.localReading(of: item.due), priority: TasklsProtocol.Priority(item.priority), tags: item.tags,
            hasNotes: !item.notes.isEmpty, children: facts.children, openChildren: facts.openChildren,
            hasChildren: facts.hasChildren, collapsed: facts.collapsed, context: facts.context, revision: item.revision,
            repeat: item.repeatRule.map(Repeat.init), hasAlerts: !item.alerts.isEmpty)
    }
}

extension HeaderRow {
    /// `header` as a row: its section's id (`s:due:today`), title and count.
    init(_ header: SectionHeader) {
        self.init(id: header.section.wireID, title: header.title, count: header.count)
    }
}

extension TasklsProtocol.Row {
    /// `row` as the wire shows it.
    init(_ row: Domain.Row, in calendar: ClientCalendar) {
        switch row {
        case .item(let item, let facts): self = .item(ItemRow(item, facts, in: calendar))
        case .header(let header): self = .header(HeaderRow(header))
        }
    }
}

extension TasklsProtocol.TaskList {
    /// `list`, with its counts when known.
    init(_ list: Domain.TaskList, open: Int? = nil, total: Int? = nil) {
        self.init(id: TasklsProtocol.ListID(list.id), name: list.name, color: list.color, icon: list.icon, open: open, total: total)
    }

    /// A list with its counts, as the overview and the list mutations' results give it.
    init(_ summary: ListSummary) {
        self.init(summary.list, open: summary.open, total: summary.total)
    }
}

extension TasklsProtocol.GroupSummary {
    /// A smart group with its count, titled as a pane shows it.
    init(_ summary: Domain.GroupSummary) {
        self.init(id: TasklsProtocol.SmartGroup(summary.group), name: summary.group.title, count: summary.count)
    }
}

extension TasklsProtocol.Overview {
    /// What `lists/list` answers and `lists/changed` pushes: `overview` at `revision`, and the store's
    /// status while it is loading or has failed.
    init(_ overview: Domain.Overview, revision: UInt64, store: StoreStatusResult? = nil, sync: [TasklsProtocol.ListSyncState]? = nil) {
        self.init(
            lists: overview.lists.map(TasklsProtocol.TaskList.init), groups: overview.groups.map(TasklsProtocol.GroupSummary.init),
            revision: revision, today: overview.today.iso8601, store: store,
            smartLists: overview.smartLists.map(TasklsProtocol.SmartList.init), sync: sync)
    }
}
