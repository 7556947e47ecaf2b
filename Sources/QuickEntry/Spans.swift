/// What a grammar says about each stretch of the text: a span per token (what it was taken as, and the value it
/// gave), and a warning per token it could not use.

import Domain

/// What a span of the text was taken as.
public enum SpanKind: String, Sendable, CaseIterable {
    /// A word of an item's title.
    case title
    /// A word of a filter's text.
    case text
    /// A word that starts with a backslash before a marker (`\#42`): text, without the backslash.
    case escape
    /// A due (`due:fri`, `^tomorrow 9:30`; in a filter also `due<fri`).
    case due
    /// A priority (`!high`, `!!`; in a filter `!high+`).
    case priority
    /// A tag (`#home`; in a filter also `#home|#work`).
    case tag
    /// A list (`@Groceries`, `@"Work stuff"`).
    case list
    /// The notes: `//` and everything after it.
    case notes
    /// A filter's completion word (`done`, `open`).
    case done
    /// A repeat phrase (`every 2 weeks`, `every month on the last fri`, `.+3d`).
    case `repeat`
    /// An alert phrase (`remind 1h before`, `remind at 9:00`, `remind fri 9:00`, `remind none`).
    case alert
}

/// The value a span gave.
public enum SpanValue: Hashable, Sendable {
    /// Text: a title or filter word, an escaped word, a tag, the notes.
    case text(String)
    /// A due; nil clears it (`due:none`).
    case due(Due?)
    /// A priority.
    case priority(Priority)
    /// A list.
    case list(ListID)
    /// Several tags (a filter's `#a|#b`).
    case tags([String])
    /// A filter's completion.
    case completion(Filter.Completion)
    /// A repeat rule, with its anchor.
    case `repeat`(RepeatRule)
    /// The alerts an alert phrase gave: one, or none for `remind none` (which clears them).
    case alerts([Alert])
}

/// One token of the text: where it is, what it was taken as, and the value it gave (nil when it gave none:
/// a warning says why).
public struct ParsedSpan: Hashable, Sendable {
    /// What it was taken as.
    public var kind: SpanKind
    /// Where it is.
    public var range: SourceRange
    /// The text of the span, as written.
    public var text: String
    /// The value it gave; nil when it gave none (see the warning on the same range).
    public var value: SpanValue?

    /// A span.
    public init(kind: SpanKind, range: SourceRange, text: String, value: SpanValue?) {
        self.kind = kind
        self.range = range
        self.text = text
        self.value = value
    }
}

/// Why a token gave nothing, or not all it seemed to.
public enum WarningReason: String, Sendable, CaseIterable {
    /// A due phrase that is no date or time (`due:fryday`, `^25:00`, `due:` with nothing after it).
    case unknownDue
    /// A `!` word that is no priority (`!urgent`).
    case unknownPriority
    /// An `@name` that names no list.
    case unknownList
    /// An `@name` that names several lists.
    case ambiguousList
    /// An `@name` while the lists cannot be read (the store is loading or has failed).
    case listsUnavailable
    /// An `@"name` without its closing quote.
    case unclosedQuote
    /// A token a later one of the same kind replaces (two dues, two priorities, two lists), or an alert a later
    /// `remind none` drops.
    case replaced
    /// A wall-clock time the clocks skip that day (a daylight saving gap): the time after the gap is used.
    case skippedTime
    /// A token a filter cannot express (`@list`, `overdue`, `due:none`, `!none`).
    case notAFilter
    /// A repeat phrase that means no rule (`every 3 fortnights`, `every month on the 32nd`).
    case unknownRepeat
    /// An alert phrase that means no alert (`remind 1h`, `remind fri`, `remind 400 days before`).
    case unknownAlert
}

/// A token the grammar could not use as it seemed meant, said so a person understands.
public struct ParseWarning: Hashable, Sendable {
    /// Why, as a stable word.
    public var reason: WarningReason
    /// What happened, in words (`no list named Grocerys; did you mean Groceries?`).
    public var message: String
    /// The token's range (the range of its span).
    public var range: SourceRange
    /// The token as written.
    public var text: String

    /// A warning.
    public init(reason: WarningReason, message: String, range: SourceRange, text: String) {
        self.reason = reason
        self.message = message
        self.range = range
        self.text = text
    }
}

/// Whether the lists can be read, for `@name`.
public enum ListsAvailability: Sendable {
    /// These are the client's lists.
    case known(ListDirectory)
    /// They cannot be read now; `reason` says why, in words (`the store is still loading`).
    case unavailable(reason: String)
}
