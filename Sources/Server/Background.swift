/// Work the loop hands off (index builds) and the events that bring its results back to the loop.

import Dispatch
import Domain
import Store
import Wire

/// What background work reports to the message loop. Not `Sendable`: a loaded store is handed over to the loop
/// (`Mailbox.post` takes it `sending`), never shared.
enum BackgroundEvent {
    /// An index build got this far (0 to 1).
    case progress(BuildID, Double)
    /// An index build finished.
    case built(BuiltIndex)
    /// The store's load (of this generation) got this far (0 to 1).
    case storeProgress(Int, Double)
    /// The store's load (of this generation) finished.
    case storeOpened(Int, LoadResult)
    /// A snapshot was written off the loop (or failed to be).
    case snapshotWritten(CompactionTicket, StoreFailure?)
    /// Something in the store's directory changed: another process may have appended records.
    case storeChanged
    /// An import's file was read, or an export's file made, off the loop (`ExchangeJobs`).
    case exchangeFinished(ExchangeJobs.Job, ExchangeOutcome)
}

/// A queue of background events that wakes the loop when something arrives.
final class Mailbox: Sendable {
    private let events = Handoff<BackgroundEvent>()
    private let waker: Waker

    init(waker: Waker) { self.waker = waker }

    /// Posts an event from any thread; the loop handles it after the messages it is handling now. The event is
    /// handed over: the poster keeps no reference to what it carries.
    func post(_ event: sending BackgroundEvent) {
        events.push(event)
        waker.wake()
    }

    /// Takes every event posted so far, in order.
    func take() -> sending [BackgroundEvent] {
        events.takeAll()
    }
}

/// Runs index builds one at a time on a background queue, so a huge sort takes at most one of
/// the machine's cores and the message loop keeps answering while it runs. A queued build
/// whose views have moved on (re-sorted, closed) is skipped, so re-sorting a huge list five
/// times in a row costs one build, not five.
final class IndexBuilder: Sendable {
    private let queue = DispatchQueue(label: "taskls.index-builds", qos: .userInitiated)
    private let wanted = Locked<Set<BuildID>>([])

    /// Tells the builder which builds are still waited for (call after anything that may drop one).
    func keep(only builds: Set<BuildID>) {
        wanted.withLock { $0 = builds }
    }

    /// Starts `build`; progress (in steps of at least 10%) and the result are posted to `mailbox`.
    func start(_ build: IndexBuild, reportingTo mailbox: Mailbox) {
        wanted.withLock { _ = $0.insert(build.id) }
        queue.async { [self] in
            guard wanted.withLock({ $0.contains(build.id) }) else { return }
            let reported = Locked<Double>(-1)
            let built = build.run { progress in
                let due = reported.withLock { last in
                    guard progress >= last + 0.1 || (progress >= 1 && last < 1) else { return false }
                    last = progress
                    return true
                }
                if due { mailbox.post(.progress(build.id, progress)) }
            }
            mailbox.post(.built(built))
        }
    }
}
