/// `sync/now`: the store's shared lists synced with their CalDAV calendars by the sync program (`taskls-sync`,
/// beside this executable), off the message loop; what it changes in the store reaches every view as another
/// process's records.

import Foundation
import TasklsProtocol
import Wire

enum SyncMethods {
    static func register(in table: inout MethodTable) {
        table.readingLater(SyncNow.self) { context, params, reply throws(ResponseError) in
            guard let store = context.storeDirectory else {
                throw .requestFailed(reason: "syncUnavailable", "the lists are in memory only; sync needs a store (--store DIR)")
            }
            let program = SyncProgram.path()
            guard FileManager.default.isExecutableFile(atPath: program) else {
                throw .requestFailed(reason: "syncUnavailable", "the sync program is not beside the server (\(program)); build it with `swift build`")
            }
            if let lists = params.lists {
                let shared = Set((context.syncStates ?? []).map(\.list))
                if let unshared = lists.first(where: { !shared.contains($0) }) {
                    throw .requestFailed(reason: "syncFailed", "params.lists: \(unshared) is not shared (taskls sync share)")
                }
            }
            var arguments = ["now", "--json", "--store", store]
            if let lists = params.lists { arguments += ["--list-id", lists.map { String($0.rawValue) }.joined(separator: ",")] }
            if params.confirm == true { arguments.append("--confirm") }
            let command = arguments
            let zone = context.calendar.timeZone.identifier
            let token = context.beginProgress(title: "Syncing")
            context.startSync(answering: reply.id) {
                SyncProgram.run(program, command, zone: zone)
            } finish: { result, environment in
                if let token { environment.progress.end(token) }
                switch result {
                case .success(let result): reply.send(result)
                case .failure(let error): reply.fail(error)
                }
            }
        }
    }
}

/// The sync program, `taskls-sync`, as the server runs it.
enum SyncProgram {
    /// `taskls-sync` beside this process's executable.
    static func path() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("taskls-sync").path
    }

    /// Runs the sync program and reads its answer (off the loop). It syncs in the client's time zone (`TZ`), so a
    /// due with a time is written with the zone the client sees it in.
    static func run(_ program: String, _ arguments: [String], zone: String) -> Result<SyncNowResult, ResponseError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = zone
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(.requestFailed(reason: "syncUnavailable", "\(program) cannot be run: \(error)"))
        }
        // Its error output is small; its answer may be long: both read to the end before waiting.
        let complaint = Locked(Data())
        let read = DispatchSemaphore(value: 0)
        let reader = Thread {
            complaint.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
            read.signal()
        }
        reader.start()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        read.wait()
        let message = complaint.withLock { String(decoding: $0, as: UTF8.self) }
            .split(separator: "\n").last.map { $0.hasPrefix("taskls sync: ") ? String($0.dropFirst(13)) : String($0) }
        guard process.terminationStatus == 0 else {
            return .failure(.requestFailed(reason: "syncFailed", (message ?? "the sync program exited with \(process.terminationStatus)")))
        }
        do throws(ResponseError) {
            let json: JSON
            do throws(JSONError) {
                json = try JSONParser.parse(Array(answer))
            } catch {
                throw ResponseError(.internalError, "the sync program's answer is not JSON: \(error)")
            }
            return .success(try SyncNowResult(json: json, path: "result"))
        } catch {
            return .failure(error)
        }
    }
}
