/// `taskls-bench`: speed and memory benchmarks. `swift run -c release taskls-bench [wire|views|store]...`

#if canImport(Glibc)
import Glibc
#endif

let known = ["wire", "views", "store"]
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
    case "views": print(runViewsBenchmark(sizes: [10_000, 100_000, 1_000_000]))
    case "store": print(runStoreBenchmark())
    default: break
    }
}
