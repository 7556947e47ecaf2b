/// `taskls repl --demo`: a throwaway store seeded with a few realistic lists and one 100,000-item
/// list, written as a snapshot directly (100,000 requests, each synced, would take minutes).
///
/// This file alone uses the Store and Domain modules, which the REPL target depends on for its
/// sake: everything else in the REPL speaks only the protocol.

import Domain
import Foundation
import Store

/// Makes and removes the demo store.
enum DemoStore {
    /// Items in the big list: enough that the store loads in the background and scrolling matters.
    static let bigListSize = 100_000

    /// Creates a temporary store seeded around today (in `timeZone`, at `now` or the real time);
    /// returns its directory.
    static func create(timeZone: String, now: Int64?) throws(CommandError) -> String {
        let day = REPLCalendar(timeZoneName: timeZone, manualNow: now)
        var template = Array((NSTemporaryDirectory() + "/taskls-demo-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CommandError("cannot create a temporary directory")
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let time = Timestamp(milliseconds: day.now)
        var nextID: UInt64 = 1
        var lists: [TaskList] = []
        var items: [Item] = []
        let listPositions = Position.between(nil, nil, count: seeds.count + 1)
        func due(_ offset: Int?) -> Due? { offset.flatMap { try? Due(parsing: day.date(ofDay: day.today + $0)) } }
        for (index, seed) in seeds.enumerated() {
            let list = ListID(nextID)
            nextID += 1
            lists.append(TaskList(id: list, name: seed.name, color: seed.color, icon: nil, position: listPositions[index]))
            // Each entry, then its subtasks under it (each set of siblings has positions of its own).
            func add(_ entries: [Entry], parent: ItemID?) {
                let positions = Position.between(nil, nil, count: entries.count)
                for (offset, entry) in entries.enumerated() {
                    let priority = (try? Domain.Priority(parsing: entry.priority)) ?? Domain.Priority.none
                    let id = ItemID(nextID)
                    items.append(Item(id: id, list: list, title: entry.title, notes: entry.notes, done: entry.done,
                                      completedAt: entry.done ? time : nil, due: due(entry.due), priority: priority, tags: entry.tags,
                                      createdAt: time, modifiedAt: time, revision: 1, position: positions[offset], parent: parent))
                    nextID += 1
                    add(entry.subtasks, parent: id)
                }
            }
            add(seed.items, parent: nil)
        }
        let big = ListID(nextID)
        nextID += 1
        lists.append(TaskList(id: big, name: "Archive", color: "gray", icon: nil, position: listPositions[seeds.count]))
        let positions = Position.between(nil, nil, count: bigListSize)
        let words = ["Review", "Plan", "Call", "Email", "Fix", "Write", "Read", "Order", "Book", "Check"]
        let objects = ["the budget", "Ann", "the landlord", "invoice", "bike brakes", "report", "chapter", "printer ink", "dentist", "backups"]
        for index in 0..<bigListSize {
            let title = "\(words[index % 10]) \(objects[(index / 10) % 10]) #\(index + 1)"
            let done = index % 3 == 0
            items.append(Item(id: ItemID(nextID), list: big, title: title, notes: "", done: done, completedAt: done ? time : nil,
                              due: index % 7 == 0 ? due(index % 61 - 30) : nil, priority: index % 11 == 0 ? .high : .none,
                              tags: index % 5 == 0 ? ["archive"] : [], createdAt: time, modifiedAt: time, revision: 1, position: positions[index]))
            nextID += 1
        }
        do {
            let state = try TaskState(restoring: lists, items: items, nextIdentifier: nextID, revision: 1)
            let (store, _) = try DurableStore.open(directory)
            let ticket = store.beginCompaction()
            try ticket.writeSnapshot(of: state.stored)
            _ = try store.finishCompaction(ticket)
        } catch let error as DomainError {
            remove(directory)
            throw CommandError(error.message)
        } catch let error as StoreFailure {
            remove(directory)
            throw CommandError(error.message)
        } catch {
            remove(directory)
            throw CommandError("\(error)")
        }
        return directory
    }

    /// Removes a demo store. On a machine slow enough that the embedded server had not stopped within
    /// `EmbeddedServer.stop`'s timeout, one of its threads may still create a file while the tree is being
    /// removed, which leaves the directory behind: removal is tried again until the directory is gone (at most
    /// about 20 s: a loaded CI machine has needed more than 5).
    static func remove(_ directory: String) {
        for _ in 0..<400 {
            try? FileManager.default.removeItem(atPath: directory)
            if !FileManager.default.fileExists(atPath: directory) { return }
            usleep(50_000)
        }
    }

    /// One seeded item: its due as days from today; its subtasks.
    struct Entry {
        var title: String
        var due: Int? = nil
        var priority = "none"
        var tags: [String] = []
        var done = false
        var notes = ""
        var subtasks: [Entry] = []
    }

    /// The small lists, in order.
    static let seeds: [(name: String, color: String?, items: [Entry])] = [
        ("Inbox", "blue", [
            Entry(title: "Buy milk", due: 0, priority: "high", tags: ["home"], notes: "2 litres, semi-skimmed"),
            Entry(title: "Call Ann about the weekend", due: 1, tags: ["family"]),
            Entry(title: "Renew passport", due: -2, priority: "high"),
            Entry(title: "Water the plants", due: 0, done: true),
            Entry(title: "Read the article Jo sent", tags: ["reading"]),
        ]),
        ("Work", "orange", [
            Entry(title: "Send the quarterly report", due: -1, priority: "high", tags: ["work"]),
            Entry(title: "Prepare Monday's demo", due: 3, priority: "medium", tags: ["work"]),
            Entry(title: "Review Sam's pull request", due: 0, priority: "medium", tags: ["work", "code"]),
            Entry(title: "Book the team offsite venue", due: 12, tags: ["work"]),
            Entry(title: "Update the on-call rota", done: true),
            Entry(title: "Write the retrospective notes", due: -5, done: true),
        ]),
        ("Groceries", "green", [
            Entry(title: "Eggs", tags: ["shop"]),
            Entry(title: "Coffee beans", priority: "low", tags: ["shop"]),
            Entry(title: "Tomatoes", tags: ["shop"], done: true),
            Entry(title: "Olive oil", tags: ["shop"]),
        ]),
        ("Home", nil, [
            Entry(title: "Fix the dripping tap", due: 2, priority: "medium", tags: ["home"]),
            Entry(title: "Pay the electricity bill", due: -3, priority: "high", tags: ["home", "bills"]),
            Entry(title: "Clear out the garage", due: 30, priority: "low", tags: ["home"]),
            Entry(title: "Replace the smoke alarm battery", due: 6, tags: ["home"]),
            Entry(title: "Plan the weekend in Lisbon", due: 20, tags: ["travel"], subtasks: [
                Entry(title: "Book flights", due: 1, priority: "high", tags: ["travel"], done: true),
                Entry(title: "Book a room in Alfama", due: 5, tags: ["travel"]),
                Entry(title: "Pack", due: 19, subtasks: [
                    Entry(title: "Passport"),
                    Entry(title: "Chargers"),
                    Entry(title: "Walking shoes"),
                ]),
            ]),
        ]),
    ]
}
