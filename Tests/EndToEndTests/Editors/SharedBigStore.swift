// The 100,000-item store the editor suites open, made once per test run and copied by each suite (instead of each
// suite creating 100,000 items through a debug server, about a minute apiece).

#if canImport(Glibc)
import Glibc
#endif
import Domain
import Store
import TestSupport

/// A store holding one list "Big" (`l1`) of 100,000 items "Task 1" … "Task 100000" in that order, made as a server
/// makes it (one `createItem` record per item, ids from the state), in a temporary directory removed as the test
/// process exits. The suites get its path as `TASKLS_TEST_BIG_STORE` and copy it; run alone they make their own.
enum SharedBigStore {
    /// How many items it holds.
    static let count = 100_000

    /// The store's directory, or nil (said on stderr) when it could not be made.
    static let path: String? = make()

    /// The temporary directory holding it.
    private static let directory = makeTemporaryDirectory(prefix: "taskls-big-store")

    private static func make() -> String? {
        let path = directory + "/big-\(count)"
        atexit { removeTree(SharedBigStore.directory) }
        do throws(StoreFailure) {
            let (store, opened) = try DurableStore.open(path)
            var state = opened
            _ = try store.lockForWriting()
            defer { store.unlock() }
            let list = ListID(state.nextIdentifier)
            try apply([.createList(id: list, fields: ListFields(name: "Big"), before: nil)], to: &state, in: store)
            let time = Timestamp(milliseconds: 1_795_000_000_000)
            for number in 1...count {
                try apply([.createItem(id: ItemID(state.nextIdentifier), list: list, fields: ItemFields(title: "Task \(number)"),
                                       before: nil, at: time)], to: &state, in: store)
            }
            try store.commit()
        } catch {
            writeToStandardError("editors: the shared 100,000-item store could not be made (\(error.message)); each suite makes its own\n")
            return nil
        }
        return path
    }

    private static func apply(_ group: [Mutation], to state: inout TaskState, in store: DurableStore) throws(StoreFailure) {
        do throws(DomainError) {
            _ = try state.apply(group)
        } catch {
            preconditionFailure("the big store's creations were refused: \(error.message)")
        }
        try store.append(group)
    }
}
