/// Loading the store: small ones at once, large ones off the loop, while views wait in `loading`.

import Dispatch
import Domain
import Store
import TasklsProtocol
import Wire

extension Persistence {
    /// Starts reading the store at `path` off the loop; views opened meanwhile wait in `loading`.
    /// Its progress is reported on `token` when the client gave one.
    func startLoading(_ path: String, reportingOn token: ProgressToken? = nil) {
        if let previous = loadToken { progress.end(previous, message: "superseded by another load") }
        loadToken = token
        if let token { progress.begin(token, title: "Loading tasks", message: path) }
        storePath = path
        phase = .loading(progress: 0)
        loadGeneration += 1
        let generation = loadGeneration
        let today = workspace.today
        let threshold = options.backgroundIndexThreshold
        let mailbox = self.mailbox
        let gate = options.loadGate
        let load = { @Sendable (report: @escaping @Sendable (Double) -> Void) -> LoadResult in
            gate?.wait()
            do throws(StoreFailure) {
                let (store, state) = try DurableStore.open(path, progress: report)
                return .opened(LoadedStore(store: store, engine: Engine(state: state, today: today, backgroundBuildThreshold: threshold)))
            } catch {
                return .failed(error)
            }
        }
        // A small store is read at once (a few milliseconds): no request waits noticeably, and no pane
        // flashes "Loading…". A larger one is read off the loop.
        if gate == nil && DurableStore.bytesToRead(at: path) <= options.inlineLoadBytes {
            storeOpened(generation, load { _ in })
            return
        }
        storeQueue.async {
            let reported = Locked<Double>(-1)
            let result = load { progress in
                let due = reported.withLock { last in
                    guard progress >= last + 0.1 || (progress >= 1 && last < 1) else { return false }
                    last = progress
                    return true
                }
                if due { mailbox.post(.storeProgress(generation, progress)) }
            }
            // The store goes to the loop and is never touched here again (`sending`: the compiler checks it).
            mailbox.post(.storeOpened(generation, result))
        }
    }

    /// Shows the load's progress in every waiting view.
    func storeProgressed(_ generation: Int, _ progress: Double) {
        guard generation == loadGeneration, case .loading = phase else { return }
        phase = .loading(progress: progress)
        if let loadToken { self.progress.report(loadToken, fraction: progress) }
        workspace.publishWaitingState(phase.viewState)
    }

    /// Installs what the loader read, or shows why it could not.
    func storeOpened(_ generation: Int, _ result: LoadResult) {
        guard generation == loadGeneration else { return }
        let token = loadToken
        loadToken = nil
        switch result {
        case .failed(let failure):
            if let token { progress.end(token, message: failure.message) }
            logger.tell(.error, "store: \(failure.message)", attention: true)
            phase = .failed(failure)
            workspace.publishWaitingState(phase.viewState)
        case .opened(let loaded):
            for note in loaded.store.notes { logger.tell(.warning, "store: \(note)") }
            logger.tell(.info, "store: opened \(loaded.store.path) at record \(loaded.store.sequence), \(loaded.engine.state.itemCount) items")
            if let token { progress.end(token, message: "\(loaded.engine.state.itemCount) items") }
            phase = .ready(loaded.store)
            watch(loaded.store.path)
            compaction = nil
            writtenSnapshot = nil
            workspace.install(loaded.engine, keepingHistory: false)
            nextSync = nil
            reloadSyncStates()
        }
    }
}

/// What the loader read: a store with an engine built around its state, or why it could not be read.
enum LoadResult {
    case opened(LoadedStore)
    case failed(StoreFailure)
}

/// A store opened off the loop, with an engine built around its state. Not `Sendable` (the store is not): it
/// crosses to the loop once, handed over with `sending` (`Mailbox.post`).
struct LoadedStore {
    let store: DurableStore
    let engine: Engine
}
