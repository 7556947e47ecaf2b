// The three-way merge of one task: a table of the rule's cases, then randomized edits on both sides.

import Domain
import Sync
import TestSupport
import Testing

private func at(_ minute: Int64) -> Timestamp { Timestamp(milliseconds: 1_795_000_000_000 + minute * 60_000) }

private let base = ExchangeTask(uid: "u1", list: "Home", title: "Plan trip", notes: "Rome", createdAt: at(0),
                                modifiedAt: at(0), due: .date(CalendarDate(year: 2026, month: 12, day: 1)!),
                                priority: .medium, tags: ["travel", "family"], alerts: [.offset(minutes: -60)],
                                extras: [Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":5")])

private func edited(_ minute: Int64, _ change: (inout ExchangeTask) -> Void) -> ExchangeTask {
    var task = base
    change(&task)
    task.modifiedAt = at(minute)
    return task
}

@Test func partsChangedOnDifferentSidesBothStay() {
    let local = edited(5) { $0.title = "Plan the trip" }
    let remote = edited(3) { $0.due = nil }
    let result = TaskMerge.merge(base: base, local: local, remote: remote)
    #expect(result.task?.title == "Plan the trip")
    #expect(result.task?.due == nil)
    #expect(result.clashes.isEmpty && result.winner == nil && result.undeleted == nil)
    #expect(result.task?.modifiedAt == at(5))
    #expect(result.task?.createdAt == at(0))
}

@Test func aClashGoesToTheLaterSideAndIsReported() {
    let local = edited(5) { $0.title = "Local title"; $0.notes = "Local notes"; $0.priority = .high }
    let remote = edited(9) { $0.title = "Remote title"; $0.notes = "Remote notes" }
    let result = TaskMerge.merge(base: base, local: local, remote: remote)
    #expect(result.clashes == [.title, .notes])
    #expect(result.winner == .remote)
    #expect(result.task?.title == "Remote title" && result.task?.notes == "Remote notes")
    // A part only one side changed is no clash, whoever wins the others.
    #expect(result.task?.priority == .high)
    let later = TaskMerge.merge(base: base, local: edited(10) { $0.title = "Local title" }, remote: remote)
    #expect(later.winner == .local && later.task?.title == "Local title")
}

@Test func aTieOrAMissingTimeGoesToTheRemoteSide() {
    var local = edited(5) { $0.title = "Local" }
    let remote = edited(5) { $0.title = "Remote" }
    #expect(TaskMerge.merge(base: base, local: local, remote: remote).task?.title == "Remote")
    // Within the same second (LAST-MODIFIED has no milliseconds): a tie.
    local.modifiedAt = Timestamp(milliseconds: at(5).milliseconds + 400)
    #expect(TaskMerge.merge(base: base, local: local, remote: remote).task?.title == "Remote")
    local.modifiedAt = Timestamp(milliseconds: at(5).milliseconds + 1_000)
    #expect(TaskMerge.merge(base: base, local: local, remote: remote).task?.title == "Local")
    var untimed = local
    untimed.modifiedAt = nil
    #expect(TaskMerge.merge(base: base, local: untimed, remote: remote).task?.title == "Remote")
}

@Test func theSameChangeOnBothSidesIsNoClash() {
    let local = edited(5) { $0.done = true; $0.completedAt = at(5) }
    let remote = edited(6) { $0.done = true; $0.completedAt = at(5) }
    let result = TaskMerge.merge(base: base, local: local, remote: remote)
    #expect(result.clashes.isEmpty)
    #expect(result.task?.done == true && result.task?.completedAt == at(5))
}

@Test func doneAndItsTimeAreOnePart() {
    // Done at different times on each side: one clash, and the task keeps the winner's pair.
    let local = edited(5) { $0.done = true; $0.completedAt = at(5) }
    let remote = edited(7) { $0.done = true; $0.completedAt = at(7) }
    let result = TaskMerge.merge(base: base, local: local, remote: remote)
    #expect(result.clashes == [.done])
    #expect(result.task?.completedAt == at(7))
    // A time on a task not done is not compared.
    let undone = edited(4) { $0.completedAt = at(1) }
    #expect(TaskMerge.merge(base: base, local: undone, remote: base).clashes.isEmpty)
}

@Test func tagsAndAlertsMergeAsSets() {
    let local = edited(5) { $0.tags = ["travel", "urgent"]; $0.alerts = [] }
    let remote = edited(6) { $0.tags = ["family", "travel", "rome"]; $0.alerts = [.offset(minutes: -60), .offset(minutes: -10)] }
    let result = TaskMerge.merge(base: base, local: local, remote: remote)
    // Local removed "family", added "urgent"; remote added "rome".
    #expect(result.task?.tags == ["travel", "urgent", "rome"])
    // Local removed the hour's alert; remote added ten minutes'.
    #expect(result.task?.alerts == [.offset(minutes: -10)])
    #expect(result.clashes.isEmpty)
}

@Test func extrasMergeByKeyAndUnknownOnesAreKept() {
    let local = edited(5) { $0.extras = [Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":7")] }
    let remote = edited(6) { $0.extras.append(Extra(key: "ical:X-PHONE-ONLY", value: ";A=1:x")) }
    let result = TaskMerge.merge(base: base, local: local, remote: remote)
    #expect(result.task?.extras == [Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":7"), Extra(key: "ical:X-PHONE-ONLY", value: ";A=1:x")])
    let clash = TaskMerge.merge(base: base, local: local, remote: edited(6) { $0.extras = [Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":9")] })
    #expect(clash.clashes == [.extra("ical:X-APPLE-SORT-ORDER")])
    #expect(clash.clashes.map(\.description) == ["order"])
}

@Test func aDeletionBeatsNoChangeAndAnEditBeatsADeletion() {
    #expect(TaskMerge.merge(base: base, local: nil, remote: base).task == nil)
    #expect(TaskMerge.merge(base: base, local: base, remote: nil).task == nil)
    // Only the modification time differs: no edit.
    #expect(TaskMerge.merge(base: base, local: edited(9) { _ in }, remote: nil).task == nil)
    let remote = edited(3) { $0.notes = "Rome and Naples" }
    let restored = TaskMerge.merge(base: base, local: nil, remote: remote)
    #expect(restored.task == remote && restored.undeleted == .local)
    let kept = TaskMerge.merge(base: base, local: edited(3) { $0.tags = ["x"] }, remote: nil)
    #expect(kept.task?.tags == ["x"] && kept.undeleted == .remote)
    #expect(TaskMerge.merge(base: base, local: nil, remote: nil).task == nil)
    // A server that wrote the properties back in another order changed nothing: the deletion stands.
    var both = base
    both.extras = [Extra(key: "ical:X-A", value: ":1"), Extra(key: "ical:X-B", value: ":2")]
    var reordered = both
    reordered.extras.reverse()
    #expect(TaskMerge.merge(base: both, local: nil, remote: reordered).task == nil)
    // But values of one key in another order are a change.
    var sameKey = base
    sameKey.extras = [Extra(key: "ical:ATTACH", value: ":a"), Extra(key: "ical:ATTACH", value: ":b")]
    var swapped = sameKey
    swapped.extras.reverse()
    #expect(TaskMerge.merge(base: sameKey, local: nil, remote: swapped).undeleted == .local)
}

@Test func withoutABaseANewTaskIsKeptAndDifferencesClash() {
    #expect(TaskMerge.merge(base: nil, local: nil, remote: base).task == base)
    #expect(TaskMerge.merge(base: nil, local: base, remote: nil).task == base)
    let local = edited(2) { $0.title = "A"; $0.tags = ["a"] }
    let remote = edited(1) { $0.title = "B"; $0.tags = ["b"] }
    let result = TaskMerge.merge(base: nil, local: local, remote: remote)
    #expect(result.clashes == [.title] && result.winner == .local && result.task?.title == "A")
    #expect(result.task?.tags == ["a", "b"])
}

@Test func identityAndBookkeepingStayLocal() {
    var remote = edited(9) { $0.title = "T" }
    remote.list = "Other"
    remote.storeID = 99
    remote.createdAt = at(-5)
    var local = base
    local.storeID = 4
    let result = TaskMerge.merge(base: base, local: local, remote: remote)
    #expect(result.task?.list == "Home" && result.task?.storeID == 4 && result.task?.uid == "u1")
    #expect(result.task?.createdAt == at(-5))
}

/// One part of the task, changed to a random value.
private enum Part: CaseIterable {
    case title, notes, done, due, priority, parent, sortOrder

    var field: MergeField {
        switch self {
        case .title: .title
        case .notes: .notes
        case .done: .done
        case .due: .due
        case .priority: .priority
        case .parent: .parent
        case .sortOrder: .extra("ical:X-APPLE-SORT-ORDER")
        }
    }

    func change(_ task: inout ExchangeTask, _ random: inout SplitMix64) {
        let value = random.below(4)
        switch self {
        case .title: task.title = "title \(value)"
        case .notes: task.notes = "notes \(value)"
        case .done:
            task.done = true
            task.completedAt = at(Int64(value))
        case .due: task.due = value == 0 ? nil : .date(CalendarDate(year: 2027, month: 1, day: value)!)
        case .priority: task.priority = [.none, .low, .high, .high][value]
        case .parent: task.parentUID = "p\(value)"
        case .sortOrder: task.extras = [Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":\(value + 10)")]
        }
    }

    func value(_ task: ExchangeTask) -> String {
        switch self {
        case .title: task.title
        case .notes: task.notes
        case .done: "\(task.done) \(String(describing: task.completedAt))"
        case .due: String(describing: task.due)
        case .priority: task.priority.rawValue
        case .parent: String(describing: task.parentUID)
        case .sortOrder: String(describing: task.extras)
        }
    }
}

@Test func randomEditsOnBothSidesMergePartByPart() {
    var random = SplitMix64(seed: 22)
    var clashesSeen = 0
    var keptFromEachSide = [0, 0]
    for _ in 0..<2_000 {
        var local = base
        var remote = base
        let localParts = Part.allCases.filter { _ in random.chance(40) }
        let remoteParts = Part.allCases.filter { _ in random.chance(40) }
        for part in localParts { part.change(&local, &random) }
        for part in remoteParts { part.change(&remote, &random) }
        local.modifiedAt = at(Int64(random.below(5)) + 1)
        remote.modifiedAt = at(Int64(random.below(5)) + 1)
        let winner: SyncSide = local.modifiedAt! > remote.modifiedAt! ? .local : .remote
        let result = TaskMerge.merge(base: base, local: local, remote: remote)
        guard let merged = result.task else {
            Issue.record("a merge of two edits deleted the task")
            return
        }
        var expectedClashes: [MergeField] = []
        for part in Part.allCases {
            let (mine, theirs, before) = (part.value(local), part.value(remote), part.value(base))
            let value = part.value(merged)
            if mine == theirs {
                #expect(value == mine)
            } else if mine == before {
                #expect(value == theirs)
                keptFromEachSide[1] += 1
            } else if theirs == before {
                #expect(value == mine)
                keptFromEachSide[0] += 1
            } else {
                expectedClashes.append(part.field)
                #expect(value == (winner == .local ? mine : theirs), "\(part) went to the wrong side")
            }
        }
        #expect(result.clashes.map(\.description).sorted() == expectedClashes.map(\.description).sorted())
        #expect(result.winner == (expectedClashes.isEmpty ? nil : winner))
        clashesSeen += expectedClashes.count
        // Merging is stable: the result merged again with the remote side, the result being the local side, is the
        // result (every part the remote changed the result already has, or won against it).
        let again = TaskMerge.merge(base: base, local: merged, remote: remote)
        #expect(again.task.map { TaskMerge.sameContent($0, merged) } == true)
        // And the sides swapped give the same content (but on a tie, which goes to the remote side).
        if local.modifiedAt != remote.modifiedAt, let swapped = TaskMerge.merge(base: base, local: remote, remote: local).task {
            #expect(TaskMerge.sameContent(swapped, merged))
        }
    }
    // The run did real work: clashes, and parts taken from each side alone.
    #expect(clashesSeen > 500 && keptFromEachSide[0] > 500 && keptFromEachSide[1] > 500)
}
