/// A seeded randomized test through the in-process server: several views open at once while
/// thousands of random requests change their lists; after every request each view, kept only
/// from its notifications by `ReferenceClient`, must equal a fresh `view/snapshot`.
///
/// Reproduce or soak with environment variables: `TASKLS_REFERENCE_SEED=0x…` runs that one
/// sequence, `TASKLS_REFERENCE_SEQUENCES` and `TASKLS_REFERENCE_STEPS` change the amounts.

import Foundation
import TasklsProtocol
import Testing
import TestSupport

@Test func everyOpenViewStaysExactThroughRandomRequests() throws {
    let configuration = RandomConfiguration.fromEnvironment()
    var totals = SessionStatistics()
    var failedSequences = 0
    var lapsesByRule: [String: Int] = [:]
    for sequence in 0..<configuration.sequences {
        let seed = configuration.seed(ofSequence: sequence)
        let session = try RandomSession(seed: seed)
        defer {
            // A lapse leaves the rows exact, so the sequence went on; each rule is reported once.
            for lapse in session.lapses {
                if lapsesByRule[lapse.rule] == nil {
                    Issue.record(
                        """
                        seed \(hex(seed)), \(lapse.context): \(lapse.violation)
                        reproduce: TASKLS_REFERENCE_SEED=\(hex(seed)) swift test --filter everyOpenViewStaysExactThroughRandomRequests
                        """)
                }
                lapsesByRule[lapse.rule, default: 0] += 1
            }
        }
        do {
            try session.play(steps: configuration.steps)
        } catch {
            failedSequences += 1
            Issue.record(
                """
                seed \(hex(seed)), operation \(session.operation), request \(session.requests): \(error)
                last requests of this sequence (oldest first):
                \(session.logTail(30))
                reproduce: TASKLS_REFERENCE_SEED=\(hex(seed)) swift test --filter everyOpenViewStaysExactThroughRandomRequests
                """)
            if failedSequences == 3 { break }
        }
        totals.add(session.statistics)
    }
    let lapses = lapsesByRule.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    print(
        "everyOpenViewStaysExactThroughRandomRequests: \(configuration.sequences) sequences from seed \(hex(configuration.baseSeed)); \(totals)"
            + (lapses.isEmpty ? "" : "; lapses: \(lapses)"))
}

func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }

/// How many sequences and steps to run, from the environment or the defaults that keep a debug
/// build under about 20 seconds.
struct RandomConfiguration {
    var baseSeed: UInt64 = 0x7A5C_15EE_D026_0001
    var sequences = 20
    var steps = 300

    static func fromEnvironment() -> RandomConfiguration {
        var configuration = RandomConfiguration()
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["TASKLS_REFERENCE_SEED"], let seed = parse(text) {
            configuration.baseSeed = seed
            configuration.sequences = 1
        }
        if let text = environment["TASKLS_REFERENCE_SEQUENCES"], let sequences = Int(text), sequences > 0 {
            configuration.sequences = sequences
        }
        if let text = environment["TASKLS_REFERENCE_STEPS"], let steps = Int(text), steps > 0 {
            configuration.steps = steps
        }
        return configuration
    }

    /// Sequence 0 runs the base seed itself, so a reported seed replays alone.
    func seed(ofSequence sequence: Int) -> UInt64 {
        baseSeed &+ UInt64(sequence) &* 0x9E37_79B9_7F4A_7C15
    }

    private static func parse(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }
}

/// Counts of what a session did, summed over sessions for the summary line.
struct SessionStatistics: CustomStringConvertible {
    var operations: [String: Int] = [:]
    var requests = 0
    var snapshots = 0
    var notifications = 0
    var changeOps: [String: Int] = [:]
    var refusals: [String: Int] = [:]
    var mostViewsOpen = 0

    mutating func add(_ other: SessionStatistics) {
        operations.merge(other.operations, uniquingKeysWith: +)
        changeOps.merge(other.changeOps, uniquingKeysWith: +)
        refusals.merge(other.refusals, uniquingKeysWith: +)
        requests += other.requests
        snapshots += other.snapshots
        notifications += other.notifications
        mostViewsOpen = max(mostViewsOpen, other.mostViewsOpen)
    }

    var description: String {
        let operationCount = operations.values.reduce(0, +)
        let mix = operations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let ops = changeOps.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let refused = refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(operationCount) operations (\(mix)); \(requests) requests (refused as expected: \(refused)), "
            + "\(snapshots) verifying snapshots, \(notifications) notifications (ops: \(ops)); up to \(mostViewsOpen) views open at once"
    }
}

/// A check of the test failed: the message says what was expected and what came.
struct SessionFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What the test knows the store holds, from the requests it made and their results.
struct ShadowStore {
    var revision: UInt64
    /// List ids in creation order.
    var lists: [ListID] = []
    /// Each list's items in manual order.
    var order: [ListID: [ItemID]] = [:]
    /// The last full item seen for each id, its `list` kept current across moves.
    var items: [ItemID: Item] = [:]
    /// Ids of deleted items, which name nothing any more.
    var deleted: [ItemID] = []

    func list(of item: ItemID) -> ListID {
        guard let list = items[item]?.list else { preconditionFailure("no list for \(item)") }
        return list
    }

    mutating func insert(_ item: Item, into list: ListID, before: ItemID?) {
        items[item.id] = item
        let position = before.flatMap { order[list]!.firstIndex(of: $0) } ?? order[list]!.count
        order[list]!.insert(item.id, at: position)
    }

    mutating func remove(_ ids: [ItemID]) {
        for id in ids {
            order[list(of: id)]!.removeAll { $0 == id }
            items[id] = nil
            deleted.append(id)
        }
    }

    /// Moves `ids` (given in their manual order) as a block before `before`, or to the end of `list`.
    mutating func move(_ ids: [ItemID], to list: ListID, before: ItemID?) {
        for id in ids {
            order[self.list(of: id)]!.removeAll { $0 == id }
            items[id]!.list = list
        }
        let position = before.flatMap { order[list]!.firstIndex(of: $0) } ?? order[list]!.count
        order[list]!.insert(contentsOf: ids, at: position)
    }

    mutating func deleteList(_ list: ListID) {
        remove(order[list]!)
        order[list] = nil
        lists.removeAll { $0 == list }
    }
}

/// Ids in the order of their spellings (`i10` before `i9`), the order every random pick among them draws
/// from, so that a seed replays the sequence it always did.
func spelled<ID: CustomStringConvertible>(_ ids: some Sequence<ID>) -> [ID] {
    ids.sorted { $0.description < $1.description }
}
