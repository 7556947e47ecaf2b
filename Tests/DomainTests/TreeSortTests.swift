// The index build's sort (`TreeOrder.sortInPlace`): the same order as the standard library's sort, keys moved whole.

import Testing
@testable import Domain
import TestSupport

struct TreeSortTests {
    /// Random keys by title (with shared prefixes, so the texts are compared), by due (many ties broken by
    /// position and id), sorted or reversed already: the order is the standard sort's, and every key arrives
    /// with its title, position and id.
    @Test func sortingBySlotsAgreesWithTheStandardSort() {
        var random = SplitMix64(seed: 1821)
        var sorted = 0
        for round in 0..<60 {
            let count = round < 5 ? round : Int.random(in: 2...600, using: &random)
            var positions = Position.between(nil, nil, count: count)
            positions.shuffle(using: &random)
            let sort = round % 2 == 0 ? Sort(.title) : Sort(.due)
            var keys: [OrderKey] = []
            for slot in 0..<count {
                let title = "Task " + String(repeating: "x", count: Int.random(in: 0...20, using: &random)) + "\(slot % 7)"
                let days = Int64.random(in: 0...3, using: &random)
                let item = Item(id: ItemID(UInt64(slot + 10)), list: ListID(1), title: title, notes: "", done: false,
                                completedAt: nil, due: slot % 5 == 0 ? nil : .date(CalendarDate(daysSinceEpoch: 20_000 + days)),
                                priority: .none, tags: [], createdAt: Timestamp(milliseconds: 0),
                                modifiedAt: Timestamp(milliseconds: 0), revision: 1, position: positions[slot])
                keys.append(OrderKey(item, sort))
            }
            if round % 10 == 7 { keys.sort() }
            if round % 10 == 8 { keys.sort(by: >) }
            let expected = keys.sorted()
            TreeOrder.sortInPlace(&keys)
            #expect(keys == expected, "round \(round)")
            #expect(keys.map(\.text) == expected.map(\.text) && keys.map(\.position) == expected.map(\.position))
            sorted += keys.count
        }
        #expect(sorted > 5_000)
    }
}
