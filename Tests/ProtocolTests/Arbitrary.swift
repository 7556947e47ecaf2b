/// Seeded random values of every protocol type, for the round-trip tests.

import TasklsProtocol
import Wire

/// A small seeded generator (SplitMix64), so every run sees the same values.
struct Randomness: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func bool() -> Bool { Bool.random(using: &self) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// Any integer JSON carries exactly.
    mutating func anyInt() -> Int { Int(Int64(bitPattern: next()) >> Int64.random(in: 0..<64, using: &self)) }

    /// A counter (revision, version): 0 ..< 2^63.
    mutating func counter() -> UInt64 { bool() ? UInt64(int(0...20)) : next() >> 1 }

    /// A count (of subtasks): small mostly, sometimes up to 2^31.
    mutating func count() -> Int { bool() ? int(0...5) : int(0...Int(Int32.max)) }

    /// A fraction from 0 to 1.
    mutating func fraction() -> Double { bool() ? Double(int(0...1000)) / 1000 : Double.random(in: 0...1, using: &self) }

    /// nil half of the time.
    mutating func maybe<Value>(_ make: (inout Randomness) -> Value) -> Value? { bool() ? make(&self) : nil }

    /// One of `values`.
    mutating func pick<Value>(_ values: [Value]) -> Value { values[int(0...values.count - 1)] }

    /// A string from the awkward corners of Unicode (quotes, controls, combining marks, astral planes).
    mutating func string() -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{1F}", "\u{7F}", "é", "e",
                                      "\u{301}", "€", "\u{FFFF}", "😀", "\u{10FFFF}", "\n"]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<int(0...10) { scalars.append(pick(pool)) }
        return String(scalars)
    }

    /// A non-empty string without NUL (a store path).
    mutating func path() -> String { "/tmp/" + string().replacingNUL() }

    mutating func strings() -> [String] { (0..<int(0...3)).map { _ in string() } }

    /// `count` distinct ids, at least one.
    mutating func ids<ID: Arbitrary & Hashable>(_ type: ID.Type) -> [ID] {
        var seen: Set<ID> = []
        var ids: [ID] = []
        for _ in 0..<int(1...4) {
            let id = ID.arbitrary(&self)
            if seen.insert(id).inserted { ids.append(id) }
        }
        return ids
    }

    mutating func patch<Value>(_ make: (inout Randomness) -> Value) -> Patch<Value> {
        switch int(0...2) {
        case 0: .unchanged
        case 1: .cleared
        default: .set(make(&self))
        }
    }
}

extension String {
    func replacingNUL() -> String { String(unicodeScalars.map { $0 == "\u{0}" ? "0" : Character($0) }) }
}

/// A type the round-trip tests can make random values of.
protocol Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Self
}

extension ListID: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListID { ListID(random.bool() ? UInt64(random.int(1...9)) : max(1, random.next())) }
}

extension ItemID: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemID { ItemID(random.bool() ? UInt64(random.int(1...9)) : max(1, random.next())) }
}

extension ViewID: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewID { ViewID(random.bool() ? UInt64(random.int(1...9)) : max(1, random.next())) }
}

/// Every `CaseIterable` protocol enumeration picks a case.
extension Arbitrary where Self: CaseIterable {
    static func arbitrary(_ random: inout Randomness) -> Self { random.pick(Array(allCases)) }
}

extension Priority: Arbitrary {}
extension SmartGroup: Arbitrary {}
extension Sections: Arbitrary {}
extension SortField: Arbitrary {}
extension SortDirection: Arbitrary {}
extension Filter.Completion: Arbitrary {}
extension EmptyReason: Arbitrary {}
extension Trace: Arbitrary {}

extension Sort: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Sort { Sort(.arbitrary(&random), .arbitrary(&random)) }
}

extension Window: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Window {
        let start = random.bool() ? random.int(0...50) : random.int(0...Int(Int32.max))
        return Window(start: start, end: start + random.int(0...ProtocolLimits.windowRows))
    }
}

extension Filter: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Filter {
        Filter(text: random.bool() ? "" : random.string(), done: .arbitrary(&random), tagsAnyOf: random.strings(),
               tagsAllOf: random.strings(), priorityAtLeast: random.maybe { .arbitrary(&$0) },
               dueBefore: random.maybe { $0.string() }, dueAfter: random.maybe { $0.string() })
    }
}

extension ViewSource: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewSource {
        switch random.int(0...2) {
        case 0: .list(.arbitrary(&random))
        case 1: .group(.arbitrary(&random))
        default: .smartList(.arbitrary(&random))
        }
    }
}

extension TaskList: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> TaskList {
        TaskList(id: .arbitrary(&random), name: random.string(), color: random.maybe { $0.string() },
                 icon: random.maybe { $0.string() }, open: random.maybe { $0.anyInt() }, total: random.maybe { $0.anyInt() })
    }
}

extension Item: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Item {
        Item(id: .arbitrary(&random), list: .arbitrary(&random), parent: random.maybe { .arbitrary(&$0) }, title: random.string(),
             notes: random.string(), done: random.bool(), completed: random.maybe { $0.string() }, due: random.maybe { $0.string() },
             dueLocal: random.maybe { $0.string() }, priority: .arbitrary(&random), tags: random.strings(), children: random.count(),
             openChildren: random.count(), created: random.string(), modified: random.string(), revision: random.counter(),
             repeat: random.maybe { .arbitrary(&$0) }, occurrences: .arbitrary(&random), alerts: Alert.list(&random),
             uid: random.maybe { $0.string() },
             extras: random.bool() ? [] : (0..<random.int(1...3)).map { _ in .arbitrary(&random) })
    }
}

extension ItemExtra: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ItemExtra { ItemExtra(key: random.string(), value: random.string()) }
}

extension RepeatAnchor: Arbitrary {}
extension Occurrence.Outcome: Arbitrary {}

extension Repeat: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Repeat { Repeat(rule: random.string(), from: .arbitrary(&random)) }
}

extension Occurrence: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Occurrence {
        Occurrence(due: random.string(), outcome: .arbitrary(&random), at: random.string())
    }
}

extension Occurrences: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Occurrences {
        Occurrences(completed: random.count(), skipped: random.count(), recent: (0..<random.int(0...3)).map { _ in .arbitrary(&random) })
    }
}

extension Row: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Row {
        if random.bool() {
            return .item(ItemRow(
                id: .arbitrary(&random), list: .arbitrary(&random), parent: random.maybe { .arbitrary(&$0) },
                depth: random.int(0...ProtocolLimits.maxDepth), title: random.string(), done: random.bool(),
                due: random.maybe { $0.string() }, dueLocal: random.maybe { $0.string() }, priority: .arbitrary(&random), tags: random.strings(),
                hasNotes: random.bool(), children: random.count(), openChildren: random.count(), hasChildren: random.bool(),
                collapsed: random.bool(), context: random.bool(), revision: random.counter(), repeat: random.maybe { .arbitrary(&$0) }, hasAlerts: random.bool()))
        }
        return .header(HeaderRow(id: random.string(), title: random.string(), count: random.anyInt()))
    }

    static func rows(_ random: inout Randomness) -> [Row] { (0..<random.int(0...4)).map { _ in .arbitrary(&random) } }
}

extension ViewState: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewState {
        switch random.int(0...3) {
        case 0: .ready
        case 1: .loading(progress: random.fraction())
        case 2: .closed
        default: .error(ViewError(message: random.string(), retryable: random.bool()))
        }
    }
}

extension WindowOperation: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> WindowOperation {
        switch random.int(0...4) {
        case 0: .insert(index: random.anyInt(), row: .arbitrary(&random))
        case 1: .remove(index: random.anyInt())
        case 2: .move(from: random.anyInt(), to: random.anyInt(), row: random.maybe { .arbitrary(&$0) })
        case 3: .update(index: random.anyInt(), row: .arbitrary(&random))
        default: .reset(rows: Row.rows(&random))
        }
    }
}

extension StoreStatusResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreStatusResult {
        let state: StoreState = switch random.int(0...3) {
        case 0: .memory
        case 1: .loading(progress: random.fraction())
        case 2: .ready(sequence: random.counter(), journalBytes: random.counter(), snapshotSequence: random.counter(),
                       compacting: random.bool())
        default: .error(message: random.string(), error: StoreErrorData(
            reason: random.string(), retryable: random.bool(), file: random.maybe { $0.string() },
            offset: random.maybe { $0.anyInt() }))
        }
        return StoreStatusResult(state: state, path: random.maybe { $0.string() })
    }
}

extension Overview: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Overview {
        Overview(
            lists: (0..<random.int(0...3)).map { _ in .arbitrary(&random) },
            groups: (0..<random.int(0...5)).map { _ in GroupSummary(id: .arbitrary(&random), name: random.string(), count: random.anyInt()) },
            revision: random.counter(), today: random.string(), store: random.maybe { .arbitrary(&$0) },
            smartLists: (0..<random.int(0...2)).map { _ in .arbitrary(&random) },
            sync: random.maybe { random in (0..<random.int(0...2)).map { _ in .arbitrary(&random) } })
    }
}

extension ViewSnapshotResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewSnapshotResult {
        ViewSnapshotResult(
            view: .arbitrary(&random), version: random.counter(), state: .arbitrary(&random), count: random.maybe { $0.anyInt() },
            empty: random.maybe { .arbitrary(&$0) }, window: .arbitrary(&random), sort: .arbitrary(&random),
            filter: .arbitrary(&random), sections: .arbitrary(&random), source: .arbitrary(&random), rows: Row.rows(&random))
    }
}

extension ViewVersion: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ViewVersion { ViewVersion(view: .arbitrary(&random), version: random.counter()) }
}

extension NullResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> NullResult { NullResult() }
}

extension EmptyResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> EmptyResult { EmptyResult() }
}
