/// The quick-entry grammars' results as protocol values: spans, warnings and their places, an item's fields, a
/// filter.

import Domain
import QuickEntry
import TasklsProtocol
import Wire

extension TasklsProtocol.TextPosition {
    /// A place counted the three ways.
    init(_ position: SourcePosition) { self.init(utf16: position.utf16, utf8: position.utf8, scalars: position.scalars) }
}

extension TasklsProtocol.SpanKind {
    /// What a span was taken as.
    init(_ kind: QuickEntry.SpanKind) {
        self = switch kind {
        case .title: .title
        case .text: .text
        case .escape: .escape
        case .due: .due
        case .priority: .priority
        case .tag: .tag
        case .list: .list
        case .notes: .notes
        case .done: .done
        case .repeat: .repeat
        case .alert: .alert
        }
    }
}

extension TasklsProtocol.WarningReason {
    /// Why a token gave nothing.
    init(_ reason: QuickEntry.WarningReason) {
        self = switch reason {
        case .unknownDue: .unknownDue
        case .unknownPriority: .unknownPriority
        case .unknownList: .unknownList
        case .ambiguousList: .ambiguousList
        case .listsUnavailable: .listsUnavailable
        case .unclosedQuote: .unclosedQuote
        case .replaced: .replaced
        case .skippedTime: .skippedTime
        case .notAFilter: .notAFilter
        case .unknownRepeat: .unknownRepeat
        case .unknownAlert: .unknownAlert
        }
    }
}

extension TasklsProtocol.TextSpan {
    /// A span, its value as the protocol writes it (a due that clears is `null`).
    init(_ span: ParsedSpan) {
        let value: JSON? = switch span.value {
        case nil: nil
        case .text(let text)?: .string(text)
        case .due(let due)?: due.map { .string($0.iso8601) } ?? .null
        case .priority(let priority)?: TasklsProtocol.Priority(priority).json
        case .list(let id)?: TasklsProtocol.ListID(id).json
        case .tags(let tags)?: tags.json
        case .completion(let completion)?: .string(completion == .done ? "done" : completion == .notDone ? "notDone" : "any")
        case .repeat(let rule)?: Repeat(rule).json
        case .alerts(let alerts)?: alerts.map(TasklsProtocol.Alert.init).json
        }
        self.init(kind: TasklsProtocol.SpanKind(span.kind), text: span.text, start: TasklsProtocol.TextPosition(span.range.start),
                  end: TasklsProtocol.TextPosition(span.range.end), value: value)
    }
}

extension TasklsProtocol.TextWarning {
    /// A warning.
    init(_ warning: ParseWarning) {
        self.init(reason: TasklsProtocol.WarningReason(warning.reason), message: warning.message, text: warning.text,
                  start: TasklsProtocol.TextPosition(warning.range.start), end: TasklsProtocol.TextPosition(warning.range.end))
    }
}

extension TextParseItemResult {
    /// The fields a line gave (its list, else `defaultList`), with its spans and warnings.
    init(_ parsed: ParsedItem, defaultList: TasklsProtocol.ListID?) {
        let due: Patch<String> = switch parsed.due {
        case nil: .unchanged
        case .cleared?: .cleared
        case .set(let due)?: .set(due.iso8601)
        }
        let fields = ItemTextFields(title: parsed.title, due: due, priority: parsed.priority.map(TasklsProtocol.Priority.init),
                                    tags: parsed.tags, list: parsed.list.map(TasklsProtocol.ListID.init) ?? defaultList,
                                    notes: parsed.notes, repeat: parsed.repeat.map(Repeat.init),
                                    alerts: parsed.alerts.map { $0.map(TasklsProtocol.Alert.init) })
        self.init(fields: fields, spans: parsed.spans.map(TasklsProtocol.TextSpan.init),
                  warnings: parsed.warnings.map(TasklsProtocol.TextWarning.init))
    }
}

extension TextParseFilterResult {
    /// The filter a line gave, with its spans and warnings.
    init(_ parsed: ParsedFilter) {
        self.init(filter: TasklsProtocol.Filter(parsed.filter), spans: parsed.spans.map(TasklsProtocol.TextSpan.init),
                  warnings: parsed.warnings.map(TasklsProtocol.TextWarning.init))
    }
}
