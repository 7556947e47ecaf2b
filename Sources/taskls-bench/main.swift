/// `taskls-bench`: speed and memory benchmarks. `swift run -c release taskls-bench [wire|views|store|lists-move|tree|smart|exchange|machine|sync]...`
/// (`lists-move`: only the views benchmark's `lists/move` table; `tree`: only its tree tables; `smart`: 50 smart lists
/// on 1,000,000 items; `exchange`: `taskls import` of 100,000 tasks beside `task import`; `machine`: issue 21's
/// table, each figure beside its target; `sync`: CalDAV sync of 10,000 tasks against a Radicale on loopback.) `taskls-bench machine-probe rss STORE WARMUP` and `machine-probe echo`
/// are the child processes `machine` runs.

#if canImport(Glibc)
import Glibc
#endif

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "machine-probe" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    switch arguments.first {
    case "rss" where arguments.count == 3: exit(runMemoryProbe(store: arguments[1], warmUp: arguments[2]))
    case "echo" where arguments.count == 1: exit(runEchoProbe())
    default:
        print("taskls-bench: expected machine-probe rss STORE WARMUP, or machine-probe echo")
        exit(2)
    }
}

let known = ["wire", "views", "store", "lists-move", "tree", "smart", "exchange", "wide", "machine", "sync"]
let requested = CommandLine.arguments.dropFirst().isEmpty ? known : Array(CommandLine.arguments.dropFirst())
for name in requested where !known.contains(name) {
    print("taskls-bench: unknown benchmark '\(name)'; expected one of \(known.joined(separator: ", "))")
    exit(2)
}
#if DEBUG
print("note: this is a debug build; run `swift run -c release taskls-bench` for real numbers\n")
#endif
for name in requested {
    switch name {
    case "wire": print(runWireBenchmark())
    case "views":
        print(runViewsBenchmark(sizes: [10_000, 100_000, 1_000_000]))
        if !requested.contains("tree") { print(runTreeBenchmark(sizes: [10_000, 100_000, 1_000_000])) }
    case "store": print(runStoreBenchmark())
    case "lists-move": print(runListMovesBenchmark(sizes: [10_000, 100_000, 1_000_000]))
    case "tree": print(runTreeBenchmark(sizes: [10_000, 100_000, 1_000_000]))
    case "smart": print(runSmartListBenchmark(size: 1_000_000))
    case "exchange": print(runExchangeBenchmark())
    case "wide": print(runWideViewsBenchmark())
    case "machine": print(runMachineBenchmark())
    case "sync":
        // TASKLS_BENCH_SYNC_TASKS=N syncs a list of N tasks instead of 10,000.
        let tasks = getenv("TASKLS_BENCH_SYNC_TASKS").flatMap { Int(String(cString: $0)) }.map { max(10, $0) } ?? 10_000
        print(runSyncBenchmark(tasks: tasks))
    default: break
    }
}
