// Random values of sync's messages, for the round-trip tests.

import TasklsProtocol

extension ListSyncState: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ListSyncState {
        ListSyncState(list: .arbitrary(&random), account: random.string(), calendar: random.string(),
                      state: random.pick(SyncPhase.allCases), syncedAt: random.maybe { $0.string() },
                      message: random.maybe { $0.string() }, waiting: random.anyInt(), notices: random.strings())
    }
}

extension SyncNow: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SyncNow {
        // Ids at least one, none twice (as the decoder wants them).
        SyncNow(lists: random.maybe { random in Array(Set((0..<random.int(1...3)).map { _ in ListID.arbitrary(&random) })).sorted() },
                confirm: random.maybe { $0.bool() })
    }
}

extension SyncNowResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SyncNowResult {
        SyncNowResult(lists: (0..<random.int(0...3)).map { _ in
            SyncedList(sync: .arbitrary(&random), sent: random.anyInt(), received: random.anyInt())
        })
    }
}
