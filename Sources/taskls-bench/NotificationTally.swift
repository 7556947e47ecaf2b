/// What the `view/changed` notifications of measured mutations carry: rows, ops and framed bytes.

import Domain
import Server
import Wire

/// Sums what view changes carry, as the server would write them: rows (inserted, updated, moved with a row,
/// reset), ops, and the bytes of the framed notifications.
struct NotificationTally {
    private(set) var rows = 0
    private(set) var operations = 0
    private(set) var bytes = 0
    private let calendar = ClientCalendar(timeZone: .current)

    /// Counts the notifications of `changes`.
    mutating func add(_ changes: [ViewChange]) {
        for change in changes {
            bytes += FrameEncoder.frame(body: change.notificationBody(in: calendar)).count
            operations += change.operations.count
            for operation in change.operations {
                switch operation {
                case .insert, .update: rows += 1
                case .move(_, _, let row): rows += row == nil ? 0 : 1
                case .remove: break
                case .reset(let reset): rows += reset.count
                }
            }
        }
    }

    /// The framed bytes `changes` would take, without counting them.
    mutating func bytes(of changes: [ViewChange]) -> Int {
        var total = 0
        for change in changes {
            total += FrameEncoder.frame(body: change.notificationBody(in: calendar)).count
        }
        return total
    }
}
