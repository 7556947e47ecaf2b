/// What the randomized engine tests share: picking at random, and the steps that do not depend
/// on what a run varies (closing views, moving windows, installing background builds).

@testable import Domain
import Testing
import TestSupport

/// A seeded random run against one engine, with a reference client per open view.
protocol EngineRun {
    var random: SplitMix64 { get set }
    var engine: Engine { get set }
    var clients: ClientSet { get set }
    var builds: [BuiltIndex] { get set }
    /// A window for a view of `count` rows, as this run likes them.
    mutating func randomWindow(count: Int) -> Window
}

extension EngineRun {
    /// The lists, in manual order.
    var lists: [ListID] { engine.state.orderedLists.map(\.id) }

    /// The items (of `list`, or all), by id.
    func itemIDs(in list: ListID? = nil) -> [ItemID] {
        engine.state.items.values.map(\.item).filter { list == nil || $0.list == list }.map(\.id).sorted()
    }

    /// One of `values`, or `nil` when there are none.
    mutating func pick<T>(_ values: [T]) -> T? {
        values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)]
    }

    /// One to three items (possibly repeated).
    mutating func someItems() -> [ItemID] {
        let all = itemIDs()
        return (0..<Int.random(in: 1...3, using: &random)).compactMap { _ in pick(all) }
    }

    /// Closes a random view.
    mutating func closeView() throws {
        guard let view = pick(engine.openViews) else { return }
        try engine.closeView(view)
        clients.clients[view] = nil
    }

    /// Moves a random view's window and checks its rows.
    mutating func changeWindow() throws {
        guard let view = pick(engine.openViews) else { return }
        let count = try engine.snapshot(view).count ?? 0
        clients.open(try engine.setWindow(view, randomWindow(count: count)))
        clients.verify(engine)
    }

    /// Installs a random finished background build.
    mutating func installBuild() throws {
        guard !builds.isEmpty else { return }
        let built = builds.remove(at: Int.random(in: 0..<builds.count, using: &random))
        clients.receive(engine.install(built), engine: engine)
    }
}
