/// Two real `taskls` binaries on one store, both with a client watching reminders: the clocks of both are moved
/// past alerts at the same moment, round after round, and every reminder reaches exactly one of the two clients;
/// moved one after the other, the second process sends nothing.

import Testing
import TestSupport
import Transcript
import Wire

@Suite struct ReminderProcessesTests {
    /// Minutes after the store tests' clock (09:00Z) at which the alerts fire.
    static let alertMinutes = 1...40

    @Test func remindersFireOnceAcrossTwoProcesses() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let first = try StoreServer(directory: directory)
        let second = try StoreServer(directory: directory)
        try #require(first.initialize() && second.initialize())
        let list = try #require(first.call("lists/create", ["name": "Inbox"])?["result"]?["list"]?["id"])
        // 40 items, each with an alert at its minute; every fourth with a second alert 30 seconds later.
        var expected: Set<String> = []
        for minute in Self.alertMinutes {
            let at = Self.instant(minutes: minute)
            var alerts: [JSON] = [["at": .string(at)]]
            if minute % 4 == 0 { alerts.append(["at": .string(Self.instant(minutes: minute, seconds: 30))]) }
            let item = try #require(first.call("items/create", ["list": list, "title": .string("alert \(minute)"), "alerts": .array(alerts)])?["result"]?["item"]?["id"])
            for alert in alerts { expected.insert("\(item.text) \(Self.canonical(alert["at"]!))") }
        }
        for server in [first, second] {
            try #require(server.call("reminders/watch", ["watch": true])?["result"]?["watch"] == .bool(true))
        }
        _ = first.takeNotifications()
        _ = second.takeNotifications()

        // Both clocks move together, every 3 minutes: the two processes race for each turn's reminders.
        var fired: [String: [String]] = [:]
        var firstCount = 0
        var secondCount = 0
        for step in stride(from: 3, through: 45, by: 3) {
            let now = JSON.string(Self.instant(minutes: step))
            let requests = [first.makeRequest("debug/setClock", ["now": now]), second.makeRequest("debug/setClock", ["now": now])]
            try #require(first.send([requests[0]]) && second.send([requests[1]]))
            try #require(first.responses(to: [requests[0]])[requests[0]["id"]!]?["result"] != nil)
            try #require(second.responses(to: [requests[1]])[requests[1]["id"]!]?["result"] != nil)
            for (name, server) in [("first", first), ("second", second)] {
                for notification in server.takeNotifications() {
                    #expect(notification.string("method") == "reminder/fired", "\(name): \(notification.text)")
                    guard let params = notification["params"], let item = params["item"]?["id"], let fireAt = params.string("fireAt") else { continue }
                    fired["\(item.text) \(fireAt)", default: []].append(name)
                    if name == "first" { firstCount += 1 } else { secondCount += 1 }
                    // Late exactly when more than 60 seconds before the clock.
                    #expect(params["late"] == .bool(fireAt < Self.instant(minutes: step - 1)), "\(name) at minute \(step): \(params.text)")
                }
            }
        }
        let twice = fired.filter { $0.value.count > 1 }
        #expect(twice.isEmpty, "fired more than once: \(twice)")
        #expect(Set(fired.keys) == expected, "missing: \(expected.subtracting(fired.keys).sorted()); unexpected: \(Set(fired.keys).subtracting(expected).sorted())")
        #expect(fired.count == 50, "40 alerts and 10 second ones")

        // One after the other: the first fires, the second, past the same alert, sends nothing but its answer.
        let late = try #require(second.call("items/create", ["list": list, "title": "once", "alerts": [["at": .string(Self.instant(minutes: 50))]]])?["result"]?["item"]?["id"])
        try #require(second.call("debug/setClock", ["now": .string(Self.instant(minutes: 50))])?["result"] != nil)
        let secondSaw = second.takeNotifications()
        try #require(first.call("debug/setClock", ["now": .string(Self.instant(minutes: 51))])?["result"] != nil)
        #expect(secondSaw.count == 1 && secondSaw.first?["params"]?["item"]?["id"] == late, "\(secondSaw.map(\.text))")
        #expect(first.takeNotifications().isEmpty, "the first process finds the reminder recorded")
        // Both see it pending, once.
        for server in [first, second] {
            let pending = try #require(server.call("reminders/list")?["result"]?.elements("reminders"))
            #expect(pending.count == 51)
        }
        first.finish()
        second.finish()
        #expect(errorLines(first).isEmpty && errorLines(second).isEmpty, "\(errorLines(first) + errorLines(second))")
        print("ReminderProcesses: 50 reminders raced for, \(firstCount) fired by the first process, \(secondCount) by the second")
    }

    /// `storeTestClock` plus this long, in UTC with milliseconds (the form the server answers).
    static func instant(minutes: Int, seconds: Int = 0) -> String {
        let total = 9 * 60 + minutes
        return "2026-11-22T\(twoDigits(total / 60)):\(twoDigits(total % 60)):\(twoDigits(seconds)).000Z"
    }

    /// An instant as the server answers it.
    static func canonical(_ json: JSON) -> String {
        if case .string(let text) = json { return text }
        return json.text
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
