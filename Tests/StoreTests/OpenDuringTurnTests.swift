// Opening a store while another handle is in the middle of a turn: the journal is read under the lock, so the
// opener never reads records of a turn that is then refused (its sync fails and it is voided).

import Testing
import Domain
@testable import Store

@Suite struct OpenDuringTurnTests {
    /// A second handle opens the store; just after its locked part, the first handle takes the lock and appends
    /// eight groups, then (after the open returned) its sync fails and the turn is voided. The opener must hold
    /// only the acknowledged groups, and read nothing more afterwards.
    @Test(arguments: [false, true])
    func anOpenerNeverReadsATurnThatIsRefused(withSnapshot: Bool) throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let base = try sampleGroups(3)
        let writer = try makeStore(path, groups: base)
        if withSnapshot {
            // The snapshot's decoding then also happens after the lock is released; one record follows it.
            var state = try applying(base)
            let ticket = writer.beginCompaction()
            try ticket.writeSnapshot(of: state)
            #expect(try writer.finishCompaction(ticket).isEmpty)
            try writeTurn(writer, &state, from: 3)
        }
        let acknowledged = try DurableStore.open(path).1
        let descriptorHolder = DescriptorHolder()
        defer { Fault.inject([], on: descriptorHolder.descriptor) }

        var turn = 0
        let (reader, opened) = try DurableStore.open(path, progress: { _ in }, afterUnlocking: {
            do {
                var state = acknowledged
                for group in try writer.lockForWriting() { _ = try state.apply(group.mutations) }
                descriptorHolder.descriptor = writer.currentJournal.descriptor
                Fault.inject([.sync], on: writer.currentJournal.descriptor)
                for index in 0..<8 {
                    let group = sampleGroup(20 + index, on: state)
                    _ = try state.apply(group)
                    try writer.append(group)
                    turn += 1
                }
            } catch {
                Issue.record("the writer's turn failed before its sync: \(error)")
            }
        })
        #expect(turn == 8)
        #expect(storeFailure { () throws(StoreFailure) in try writer.commit() } != nil, "the sync fails")
        #expect(!writer.isLocked && lockIsFree(path))
        expectSameState(opened, acknowledged, "the opener holds only what was acknowledged")
        #expect(try reader.readNewRecords(waiting: true)?.isEmpty == true)
        expectSameState(try DurableStore.open(path).1, acknowledged, "reopened")
    }
}

/// A descriptor set inside a closure and read after it.
private final class DescriptorHolder {
    var descriptor: Int32 = -1
}
