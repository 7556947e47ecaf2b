/// Params to the domain values mutations carry, and the checks of params that need more than the
/// wire: dues, the clock's instant, the client's time zone. The store's state as `store/status` says it.

import Foundation
import Domain
import Store
import TasklsProtocol
import Wire

extension ItemFields {
    /// The fields of a new item from `items/create` params; `due` is parsed (`params.due: ...`).
    init(_ params: ItemsCreate) throws(ResponseError) {
        self.init(
            title: params.title, notes: params.notes ?? "", done: params.done ?? false,
            due: try params.due.map { text throws(ResponseError) in try Due(wire: text, path: "params.due") },
            priority: params.priority.map(Domain.Priority.init) ?? .none, tags: params.tags ?? [],
            repeatRule: try params.repeat.map { value throws(ResponseError) in try RepeatRule(value) },
            alerts: try Domain.Alert.list(params.alerts) ?? [])
    }
}

extension RepeatRule {
    /// The rule a `repeat` member gives: `params.repeat.rule: PROBLEM` naming the RRULE part that is wrong.
    init(_ value: Repeat) throws(ResponseError) {
        let anchor: Anchor = switch value.from {
        case .due: .due
        case .dueFuture: .dueFuture
        case .completion: .completion
        }
        do throws(DomainError) {
            try self.init(rrule: value.rule, anchor: anchor)
        } catch {
            throw error.responseError
        }
    }
}

extension ItemPatch {
    /// The fields `items/update` changes: absent leaves a field alone, `null` clears `due` (parsed: `params.due: ...`).
    init(_ params: ItemsUpdate) throws(ResponseError) {
        self.init(title: params.title, notes: params.notes, done: params.done,
                  priority: params.priority.map(Domain.Priority.init), tags: params.tags,
                  alerts: try Domain.Alert.list(params.alerts))
        switch params.due {
        case .unchanged: due = nil
        case .cleared: due = .clear
        case .set(let text): due = .set(try Due(wire: text, path: "params.due"))
        }
        switch params.repeat {
        case .unchanged: repeatRule = nil
        case .cleared: repeatRule = .clear
        case .set(let value): repeatRule = .set(try RepeatRule(value))
        }
    }
}

extension ListFields {
    /// The fields of a new list from `lists/create` params.
    init(_ params: ListsCreate) {
        self.init(name: params.name, color: params.color, icon: params.icon)
    }
}

extension ListPatch {
    /// The fields `lists/update` changes: absent leaves a field alone, `null` clears `color` or `icon`.
    init(_ params: ListsUpdate) {
        self.init(name: params.name, color: Clearable(params.color), icon: Clearable(params.icon))
    }
}

extension Clearable {
    /// The change `patch` makes: nil when it leaves the field alone.
    init?(_ patch: Patch<Value>) {
        switch patch {
        case .unchanged: return nil
        case .cleared: self = .clear
        case .set(let value): self = .set(value)
        }
    }
}

extension Clearable where Value == Domain.ItemID {
    /// The parent a request chose: nil when it named none (`before` decides), `.clear` for the top level.
    init?(_ choice: ParentChoice) {
        switch choice {
        case .unspecified: return nil
        case .topLevel: self = .clear
        case .item(let id): self = .set(Domain.ItemID(id))
        }
    }
}

extension DebugSetClock {
    /// The instant `now` names: `-32602` unless it is an instant with its offset.
    func instant() throws(ResponseError) -> Timestamp {
        guard case .dateTime(let instant, _)? = try? Due(parsing: now, field: "now") else {
            throw .invalidParams("params.now: expected an instant such as 2026-11-22T23:59:00Z, got '\(now)'")
        }
        return instant
    }
}

extension Initialize {
    /// The client's time zone, nil when it gave none: `-32602` for a name the system does not know.
    func clientTimeZone() throws(ResponseError) -> TimeZone? {
        guard let timeZone else { return nil }
        guard let zone = TimeZone(identifier: timeZone) else { throw Initialize.unknownTimeZone(timeZone) }
        return zone
    }
}

extension StoreErrorData {
    /// The data of the error requests get while the store is refused for `failure`.
    init(_ failure: StoreFailure) {
        self.init(reason: failure.reason, retryable: failure.retryable, file: failure.file, offset: failure.offset)
    }
}

extension StoreState {
    /// The state `store/status` reports for `phase`; `compacting`: whether this process is writing a snapshot.
    init(_ phase: StorePhase, compacting: Bool) {
        switch phase {
        case .memory: self = .memory
        case .loading(let progress): self = .loading(progress: (progress * 1000).rounded() / 1000)
        case .ready(let store):
            self = .ready(sequence: store.sequence, journalBytes: UInt64(store.journalBytes),
                          snapshotSequence: store.snapshotSequence, compacting: compacting)
        case .failed(let failure, _): self = .error(message: failure.message, error: StoreErrorData(failure))
        }
    }
}
