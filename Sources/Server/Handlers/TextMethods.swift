/// `text/parseItem` and `text/parseFilter`: the quick-entry grammars (`QuickEntry`), read with the client's day
/// and time zone, and for `@list` its lists. Both change nothing.

import Domain
import Foundation
import QuickEntry
import TasklsProtocol
import Wire

enum TextMethods {
    static func register(in table: inout MethodTable) {
        // Reads the lists for `@name`. While the store loads or has failed it still answers (a person is
        // typing): everything but `@name`, which is warned about.
        table.reading(TextParseItem.self, { context, params throws(ResponseError) in
            let state = context.engine.state
            if let list = params.list, state.lists[ListID(list)] == nil {
                throw DomainError.notFound(kind: .list, ids: [list.rawValue]).responseError
            }
            let lists = ListDirectory(state.orderedLists.map { ($0.id, $0.name) })
            let parsed = ItemGrammar.parse(params.text, clock: context.calendar.clock(at: context.now), lists: .known(lists))
            return TextParseItemResult(parsed, defaultList: params.list)
        }, waiting: { context, params throws(ResponseError) in
            let reason = switch context.state {
            case .error: "the store cannot be read"
            default: "the lists are still loading"
            }
            let parsed = ItemGrammar.parse(params.text, clock: context.calendar.clock(at: context.now),
                                           lists: .unavailable(reason: reason))
            return TextParseItemResult(parsed, defaultList: params.list)
        })
        // A filter names no list: it reads nothing of the store, and answers whatever the store's state.
        table.state(TextParseFilter.self, store: .none) { context, params in
            TextParseFilterResult(FilterGrammar.parse(params.text, clock: context.calendar.clock(at: context.now)))
        }
    }
}

/// The client's zone, with Foundation's rules, as the grammars and the repeat rules take it.
struct ClientZone: TimeZoneRules {
    let timeZone: TimeZone

    var identifier: String { timeZone.identifier }

    func offsetSeconds(at instant: Timestamp) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

extension ClientCalendar {
    /// The client's clock at `now`, for the grammars.
    func clock(at now: Timestamp) -> ClientClock { ClientClock(now: now, zone: zone) }

    /// The client's zone's offsets, for the dates repeating items move on to.
    var zone: ClientZone { ClientZone(timeZone: timeZone) }
}
