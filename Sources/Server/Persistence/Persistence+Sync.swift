/// The lists' sync states, as the sync program leaves them beside the store (`sync-state.json`).

import Store
import TasklsProtocol
import Wire

extension Persistence {
    /// The side file the sync program writes each shared list's state to (`{"lists": [ListSyncState]}`).
    static let syncStateName = "sync-state.json"

    /// Reads the lists' sync states again and hands them to the workspace (which pushes the overview when they
    /// changed). No file: no list is shared. A file that cannot be read is logged and taken as none.
    /// - Complexity: O(size of the file): it holds one small entry per shared list.
    func reloadSyncStates() {
        guard let path = phase.store?.path else {
            workspace.setSyncStates(nil)
            return
        }
        let bytes: [UInt8]?
        do throws(StoreFailure) {
            let files = try StoreSideFiles(path: path)
            defer { files.close() }
            bytes = try files.read(Self.syncStateName)
        } catch {
            logger.log(.warning, "sync: \(Self.syncStateName) cannot be read: \(error.message)")
            return
        }
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
            let lists: [ListSyncState] = try ObjectReader(json: json, path: Self.syncStateName).required("lists")
            workspace.setSyncStates(lists.isEmpty ? nil : lists)
        } catch {
            logger.log(.warning, "sync: \(error.message)")
        }
    }
}
