/// An engine built around a loaded state (`Engine(state:today:)`) counts and orders exactly as one that
/// applied the same mutations itself.

import Testing
@testable import Domain
import TestSupport

@Suite struct EngineFromStateTests {
    @Test(arguments: [1, 2, 3])
    func countsAndViewsMatchAnEngineThatAppliedTheMutations(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let today = makeDay(day(2026, 11, 22), after: 10 * 3_600_000)
        var applied = Engine()
        _ = applied.advance(to: today, budget: .max)
        let time = Timestamp(milliseconds: today.now.milliseconds)
        for list in 1...3 {
            _ = try applied.apply([.createList(id: ListID(UInt64(list)), fields: ListFields(name: "L\(list)"), before: nil)])
        }
        var next: UInt64 = 10
        for _ in 0..<400 {
            let offset = Int64(Int.random(in: -5...10, using: &random))
            let due: Due?
            switch Int.random(in: 0..<3, using: &random) {
            case 0: due = nil
            case 1: due = .date(CalendarDate(daysSinceEpoch: today.date.daysSinceEpoch + offset))
            default: due = .dateTime(Timestamp(milliseconds: today.now.milliseconds + offset * 3_600_000), offsetSeconds: 0)
            }
            let fields = ItemFields(title: "item \(next)", done: Bool.random(using: &random), due: due)
            _ = try applied.apply([.createItem(id: ItemID(next), list: ListID(UInt64.random(in: 1...3, using: &random)),
                                               fields: fields, before: nil, at: time)])
            next += 1
        }
        let loaded = Engine(state: applied.state, today: today)
        #expect(loaded.overview() == applied.overview())
        for group in SmartGroup.allCases {
            var fresh = loaded
            var reference = applied
            let window = Window(start: 0, end: 500)
            let a = try fresh.openView(source: .group(group), sort: Sort(.due, .ascending), window: window)
            let b = try reference.openView(source: .group(group), sort: Sort(.due, .ascending), window: window)
            #expect(a.snapshot.rows == b.snapshot.rows, "\(group)")
        }
    }
}
