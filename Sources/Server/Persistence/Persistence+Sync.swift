/// Sync as the server sees it: the lists' sync states the sync program leaves beside the store (`sync-state.json`),
/// and the syncs the server runs by itself while the store has a sync account (`ServerOptions.syncInterval`).

import Foundation
import Store
import TasklsProtocol
import Wire

extension Persistence {
    /// The side file the sync program writes each shared list's state to (`{"lists": [ListSyncState]}`).
    static let syncStateName = "sync-state.json"
    /// The side file of the store's sync accounts: while it exists, the server syncs by itself.
    static let syncAccountsName = "sync-accounts.json"

    /// Reads the lists' sync states again and hands them to the workspace (which pushes the overview when they
    /// changed). No file: no list is shared. A file that cannot be read is logged and taken as none. Schedules the
    /// first automatic sync when the store has a sync account and none is scheduled.
    /// - Complexity: O(size of the file): it holds one small entry per shared list.
    func reloadSyncStates() {
        guard let path = phase.store?.path else {
            workspace.setSyncStates(nil)
            nextSync = nil
            return
        }
        let bytes: [UInt8]?
        let hasAccounts: Bool
        do throws(StoreFailure) {
            let files = try StoreSideFiles(path: path)
            defer { files.close() }
            bytes = try files.read(Self.syncStateName)
            hasAccounts = try files.read(Self.syncAccountsName) != nil
        } catch {
            logger.log(.warning, "sync: \(Self.syncStateName) cannot be read: \(error.message)")
            return
        }
        if hasAccounts && nextSync == nil && syncsRunning == 0 { scheduleSync(in: 0) }
        guard let bytes else {
            workspace.setSyncStates(nil)
            return
        }
        let json: JSON
        do throws(JSONError) {
            json = try JSONParser.parse(bytes)
        } catch {
            logger.log(.warning, "sync: \(Self.syncStateName) is not JSON: \(error)")
            return
        }
        do throws(ResponseError) {
            var lists: [ListSyncState] = try ObjectReader(json: json, path: Self.syncStateName).required("lists")
            if lists.contains(where: { $0.state == .syncing }) { lists = settleStoppedSyncs(lists, path: path) }
            workspace.setSyncStates(lists.isEmpty ? nil : lists)
        } catch {
            logger.log(.warning, "sync: \(error.message)")
        }
    }

    /// `lists` with every `syncing` state that no sync holds the lock for (the sync program died: killed, or a
    /// crash) made `offline`, saying so, and written back under the lock, so that the next sync, which the offline
    /// state brings within a minute, takes over; `lists` as they are while a sync holds the lock.
    /// - Complexity: O(lists), and one `flock` try: only when some list says `syncing`.
    private func settleStoppedSyncs(_ lists: [ListSyncState], path: String) -> [ListSyncState] {
        var settled = lists
        do throws(StoreFailure) {
            let files = try StoreSideFiles(path: path)
            defer { files.close() }
            _ = try files.whileUnlocked(StoreSideFiles.syncLock) { () throws(StoreFailure) in
                // Read again under the lock: a sync may have finished since.
                guard let bytes = try files.read(Self.syncStateName), let json = try? JSONParser.parse(bytes),
                      let now: [ListSyncState] = try? ObjectReader(json: json, path: Self.syncStateName).required("lists") else { return }
                settled = now.map { state in
                    guard state.state == .syncing else { return state }
                    var stopped = state
                    stopped.state = .offline
                    stopped.progress = nil
                    stopped.message = "the last sync stopped before it finished (its process ended); the next one takes over"
                    return stopped
                }
                let written: JSON = ["lists": .array(settled.map(\.json))]
                try files.write(Self.syncStateName, written.bytes)
            }
        } catch {
            logger.log(.warning, "sync: a stopped sync's state cannot be settled: \(error.message)")
        }
        return settled
    }

    /// Milliseconds until the server's next sync of its own is due; -1 when none is scheduled (or one runs).
    var millisecondsUntilSync: Int32 {
        guard let nextSync, syncsRunning == 0 else { return -1 }
        return Int32(clamping: max(0, nextSync - monotonicMilliseconds()))
    }

    /// Schedules the next automatic sync `milliseconds` from now (default: the interval, or a minute while a list is
    /// offline, so its waiting changes go out soon after the server is back). Nothing when automatic syncs are off,
    /// on a manual clock (tests of time), or without a store.
    func scheduleSync(in milliseconds: Int64? = nil) {
        guard options.syncInterval > 0, options.manualClock == nil, phase.store != nil else {
            nextSync = nil
            return
        }
        let offline = workspace.syncStates?.contains { $0.state == .offline } ?? false
        let seconds = offline ? min(60, options.syncInterval) : options.syncInterval
        nextSync = monotonicMilliseconds() + (milliseconds ?? Int64(seconds) * 1000)
    }

    /// Starts the automatic sync when it is due.
    func startDueSync() {
        guard let due = nextSync, syncsRunning == 0, due <= monotonicMilliseconds(), let path = phase.store?.path else { return }
        nextSync = nil
        let program = SyncProgram.path()
        guard FileManager.default.isExecutableFile(atPath: program) else {
            logger.log(.info, "sync: \(program) is missing; build it with `swift build` to sync")
            return
        }
        let zone = workspace.calendar.timeZone.identifier
        let arguments = ["now", "--json", "--store", path]
        startSync { SyncProgram.run(program, arguments, zone: zone) } finish: { result, environment in
            if case .failure(let error) = result { environment.log.log(.info, "sync: \(error.message)") }
        }
    }

    /// Runs the sync program off the loop; when it ends, the states are read again, the next automatic sync is
    /// scheduled, and `finish` runs on the loop.
    func startSync(answering request: RequestID? = nil, _ work: @escaping @Sendable () -> Result<SyncNowResult, ResponseError>,
                   finish: @escaping (Result<SyncNowResult, ResponseError>, Environment) -> Void) {
        syncsRunning += 1
        nextSync = nil
        workspace.exchange.start(for: request, waitsForNetwork: true) { .synced(work()) } finish: { outcome, environment in
            let persistence = environment.persistence
            persistence.syncsRunning -= 1
            persistence.reloadSyncStates()
            persistence.scheduleSync()
            guard case .synced(let result) = outcome else { return }
            finish(result, environment)
        }
    }
}
