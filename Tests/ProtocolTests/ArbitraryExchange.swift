/// Random values of `store/import` and `store/export` and their results, for the round trips.

import TasklsProtocol

extension ExchangeProblem: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ExchangeProblem {
        ExchangeProblem(file: random.string(), line: random.int(0...100_000), field: random.maybe { $0.string() },
                        message: random.string())
    }
}

extension ExchangeLoss: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ExchangeLoss {
        ExchangeLoss(what: random.string(), reason: random.string(), count: random.int(1...100_000))
    }
}

extension StoreImport: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreImport {
        StoreImport(format: ExchangeFormat.allCases.randomElement(using: &random)!,
                    source: random.bool() ? .path("/" + random.string()) : .text(random.string()),
                    name: random.maybe { $0.string() }, into: random.maybe { ListID.arbitrary(&$0) },
                    dryRun: random.bool(), skipInvalid: random.bool())
    }
}

extension StoreImportResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreImportResult {
        StoreImportResult(dryRun: random.bool(), created: random.int(0...100_000), updated: random.int(0...100_000),
                          unchanged: random.int(0...100_000), createdLists: random.strings(), createdSmartLists: random.strings(),
                          skipped: (0..<random.int(0...2)).map { _ in .arbitrary(&random) },
                          losses: (0..<random.int(0...2)).map { _ in .arbitrary(&random) }, revision: random.counter())
    }
}

extension StoreExport: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreExport {
        let lists: [ListID]? = random.bool() ? nil : (1...random.int(1...3)).map { ListID(UInt64($0 * 7 + random.int(0...6))) }
        return StoreExport(format: ExchangeFormat.allCases.randomElement(using: &random)!, lists: lists,
                           path: random.maybe { "/" + $0.string() })
    }
}

extension StoreExportResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> StoreExportResult {
        StoreExportResult(text: random.maybe { $0.string() }, tasks: random.int(0...100_000), lists: random.int(0...1_000),
                          losses: (0..<random.int(0...2)).map { _ in .arbitrary(&random) }, revision: random.counter())
    }
}
