/// What a client found wrong in what the server sent about a view: a typed error a strict client fails
/// on and a lenient one answers by starting again from `view/snapshot`.

/// Something about a view that protocol.md does not allow, as a client applying it saw it.
///
/// Most rules, when broken, leave the client unable to know the window's rows: `ViewWindow` throws
/// them and changes nothing. The rules of form (`Rule.leavesRowsExact`) are broken by a change that
/// still applies exactly; `ViewWindow` applies it and returns them as lapses.
public struct ViewWindowViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule broken.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// A snapshot or change of another view than this one.
        case wrongView
        /// A change after `view/closed`.
        case changeAfterClose
        /// A snapshot's version below 1.
        case versionBelowOne
        /// A `view/setWindow` result whose version is not the view's: "The version does not change".
        case versionChangedBySetWindow
        /// A snapshot older than a version a notification already announced.
        case staleSnapshot
        /// A change whose `window` is not the client's: only `view/setWindow` moves it.
        case windowMoved
        /// A negative `count`, or no `count` for a ready view.
        case badCount
        /// A loading view's `progress` outside 0...1.
        case progressOutOfRange
        /// An op's index outside the rows it applies to.
        case indexOutOfRange
        /// A row id twice in the window (inserted while there, or twice in a snapshot or reset).
        case duplicateRow
        /// An `update` or `move` whose row has another id than the row it replaces.
        case rowIdentityChanged
        /// A `reset` with other ops in the same change.
        case resetNotAlone
        /// Rows that are not the ones `state`, `count` and `window` imply (`start ..< min(end, count)` when
        /// ready, none otherwise).
        case rowCount
        /// A change with nothing a client can see (rows, count, state, empty): a lapse.
        case invisibleChange
        /// A row removed and inserted again in one change, where protocol.md asks for a `move`: a lapse.
        case removedAndInserted
        /// A `move` carrying the row it moves unchanged (`row` is present only when its content changed): a lapse.
        case moveRepeatsRow
        /// A `move` to the index it came from: a lapse.
        case moveInPlace
        /// An `update` with the row the client already has: a lapse.
        case updateRepeatsRow
        /// Ops as many as the window holds rows, where protocol.md asks for one `reset`: a lapse.
        case opsAsManyAsRows

        /// Whether a change breaking this rule still applies exactly (a lapse of form), rather than being refused.
        public var leavesRowsExact: Bool {
            switch self {
            case .invisibleChange, .removedAndInserted, .moveRepeatsRow, .moveInPlace, .updateRepeatsRow, .opsAsManyAsRows: true
            default: false
            }
        }
    }

    /// The rule broken.
    public var rule: Rule
    /// What was wrong, naming the view, the op and the values.
    public var message: String

    /// A violation of `rule`, described by `message`.
    public init(_ rule: Rule, _ message: String) {
        self.rule = rule
        self.message = message
    }

    public var description: String { message }
}
