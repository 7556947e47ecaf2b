// Random values of the smart lists' protocol types, for the round-trip tests.

@testable import TasklsProtocol
import Wire

extension SmartListID: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SmartListID {
        SmartListID(random.bool() ? UInt64(random.int(1...9)) : max(1, random.next()))
    }
}

extension SmartList: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SmartList {
        SmartList(id: .arbitrary(&random), name: random.string(), color: random.maybe { $0.string() },
                  icon: random.maybe { $0.string() }, filter: .arbitrary(&random),
                  lists: random.maybe { $0.bool() ? [] : $0.ids(ListID.self) }, count: random.anyInt())
    }
}

extension SmartListsCreate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SmartListsCreate {
        SmartListsCreate(name: random.string(), color: random.maybe { $0.string() }, icon: random.maybe { $0.string() },
                         filter: .arbitrary(&random), lists: random.maybe { $0.ids(ListID.self) },
                         before: random.maybe { .arbitrary(&$0) })
    }
}

extension SmartListsUpdate: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SmartListsUpdate {
        let lists: Patch<[ListID]> = switch random.int(0...2) {
        case 0: .unchanged
        case 1: .cleared
        default: .set(random.ids(ListID.self))
        }
        return SmartListsUpdate(id: .arbitrary(&random), name: random.maybe { $0.string() }, color: random.patch { $0.string() },
                                icon: random.patch { $0.string() }, filter: random.maybe { .arbitrary(&$0) }, lists: lists)
    }
}

extension SmartListResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SmartListResult {
        SmartListResult(smartList: .arbitrary(&random), revision: random.counter(), changed: random.maybe { $0.bool() })
    }
}

extension SmartListsDelete: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SmartListsDelete { SmartListsDelete(id: .arbitrary(&random)) }
}

extension SmartListsMove: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> SmartListsMove {
        SmartListsMove(ids: random.ids(SmartListID.self), before: random.maybe { .arbitrary(&$0) })
    }
}
