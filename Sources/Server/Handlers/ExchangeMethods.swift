/// `store/import` and `store/export`: other tools' files in and out, the heavy part off the message loop.

import Domain
import Foundation
import Interchange
import TasklsProtocol
import Wire

enum ExchangeMethods {
    static func register(in table: inout MethodTable) {
        table.readingLater(StoreImport.self) { context, params, reply throws(ResponseError) in
            if let into = params.into, context.engine.state.lists[ListID(into)] == nil {
                throw DomainError.notFound(kind: .list, ids: [into.rawValue]).responseError
            }
            let fileName = params.name ?? { if case .path(let path) = params.source { path } else { "-" } }()
            let options = ReadOptions(fileName: fileName, localZone: context.calendar.zone, zones: SystemZones(),
                                      skipInvalid: params.skipInvalid)
            let token = context.beginProgress(title: "Importing \(fileName)")
            let format = params.format
            let source = params.source
            context.offLoop(answering: reply.id) {
                .read(readFile(source, format: format, options: options))
            } finish: { outcome, environment in
                if let token { environment.progress.end(token) }
                guard case .read(let reading) = outcome else { return }
                do throws(ResponseError) {
                    reply.send(try finishImport(try reading.get(), params, fileName: fileName, in: environment))
                } catch {
                    reply.fail(error)
                }
            }
        }
        table.readingLater(StoreExport.self) { context, params, reply throws(ResponseError) in
            let state = context.engine.state
            if let lists = params.lists {
                let missing = lists.filter { state.lists[ListID($0)] == nil }
                guard missing.isEmpty else {
                    throw DomainError.notFound(kind: .list, ids: missing.map(\.rawValue)).responseError
                }
            }
            let ids = params.lists.map { $0.map(ListID.init) }
            let zone = context.calendar.zone
            let options = WriteOptions(localZone: zone, localZoneName: zone.identifier, now: context.now)
            let token = context.beginProgress(title: "Exporting")
            let format = params.format
            let path = params.path
            context.offLoop(answering: reply.id) {
                .exported(export(state, lists: ids, format: format, options: options, path: path))
            } finish: { outcome, environment in
                if let token { environment.progress.end(token) }
                guard case .exported(let result) = outcome else { return }
                switch result {
                case .success(let result): reply.send(result)
                case .failure(let error): reply.fail(error)
                }
            }
        }
    }

    /// Reads and parses the file (off the loop).
    private static func readFile(_ source: StoreImport.Source, format: TasklsProtocol.ExchangeFormat,
                                 options: ReadOptions) -> Result<ExchangeReading, ResponseError> {
        let text: String
        switch source {
        case .text(let given):
            text = given
        case .path(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(.invalidParams("params.path: cannot read \(path): \(FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file")"))
            }
            if format == .ics {
                // Some writers fold a line inside a UTF-8 sequence: the iCalendar reader mends it.
                text = ICalendarFormat.text(decoding: Array(data))
            } else if let decoded = String(validating: data, as: UTF8.self) {
                text = decoded
            } else {
                return .failure(.invalidParams("params.path: \(path) is not UTF-8 text"))
            }
        }
        do throws(ExchangeFailure) {
            return .success(try ExchangeFormatName(format).format.read(text, options: options))
        } catch {
            return .failure(invalidFile(error, field: { if case .path = source { "path" } else { "text" } }()))
        }
    }

    /// The error for a file refused: the first problem in the message, every one in `data.problems`.
    private static func invalidFile(_ failure: ExchangeFailure, field: String) -> ResponseError {
        let first = failure.problems.first?.description ?? "not a valid file"
        let others = failure.problems.count - 1 + failure.more
        let message = "params.\(field): \(first)" + (others > 0 ? " (and \(others) more problem\(others == 1 ? "" : "s"))" : "")
        return ResponseError(.invalidParams, message, data: problemData(reason: "invalidFile", failure))
    }

    /// `data` of a refused file: the reason, every problem, and how many more there were.
    private static func problemData(reason: String, _ failure: ExchangeFailure) -> JSON {
        ["reason": .string(reason), "problems": failure.problems.map(TasklsProtocol.ExchangeProblem.init).json,
         "more": .integer(Int64(failure.more))]
    }

    /// Plans the import against the state as it is now and applies it (on the loop), or answers what it would do.
    private static func finishImport(_ reading: ExchangeReading, _ params: StoreImport, fileName: String,
                                     in environment: Environment) throws(ResponseError) -> StoreImportResult {
        let writing = environment.writingContext(method: StoreImport.method)
        let settings = ImportSettings(into: params.into.map(ListID.init), fileName: fileName,
                                      skipInvalid: params.skipInvalid, time: writing.now)
        let plan = writing.engine.state.importPlan(reading.document, settings: settings)
        guard plan.problems.isEmpty else {
            throw invalidFile(ExchangeFailure(problems: Array(plan.problems.prefix(ExchangeFailure.limit)),
                                              more: max(0, plan.problems.count - ExchangeFailure.limit)),
                              field: { if case .path = params.source { "path" } else { "text" } }())
        }
        var revision = writing.engine.revision
        if !params.dryRun && !plan.mutations.isEmpty {
            revision = try writing.apply(plan.mutations).revision
        }
        return StoreImportResult(dryRun: params.dryRun, created: plan.created, updated: plan.updated,
                                 unchanged: plan.unchanged, createdLists: plan.createdLists,
                                 createdSmartLists: plan.createdSmartLists,
                                 skipped: (reading.skipped + plan.skipped).map(TasklsProtocol.ExchangeProblem.init),
                                 losses: reading.losses.map(TasklsProtocol.ExchangeLoss.init), revision: revision)
    }

    /// Makes the file (off the loop) and writes it when a path was given.
    private static func export(_ state: TaskState, lists: [Domain.ListID]?, format: TasklsProtocol.ExchangeFormat,
                               options: WriteOptions, path: String?) -> Result<StoreExportResult, ResponseError> {
        let document = state.exportDocument(lists: lists)
        let writing = ExchangeFormatName(format).format.write(document, options: options)
        if let path {
            do {
                try writeAtomically(writing.text, to: path)
            } catch {
                return .failure(.requestFailed(reason: "writeFailed", "params.path: cannot write \(path): \(error)"))
            }
        }
        return .success(StoreExportResult(text: path == nil ? writing.text : nil, tasks: document.tasks.count,
                                          lists: document.lists.count,
                                          losses: writing.losses.map(TasklsProtocol.ExchangeLoss.init),
                                          revision: state.revision))
    }

    /// Writes `text` to a temporary file beside `path`, syncs it, and renames it over `path`.
    private static func writeAtomically(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}

extension ExchangeFormatName {
    /// The Interchange format the protocol's format names.
    init(_ format: TasklsProtocol.ExchangeFormat) {
        self = ExchangeFormatName(rawValue: format.rawValue)!
    }
}

extension TasklsProtocol.ExchangeProblem {
    init(_ problem: Domain.ExchangeProblem) {
        self.init(file: problem.file, line: problem.line, field: problem.field, message: problem.message)
    }
}

extension TasklsProtocol.ExchangeLoss {
    init(_ loss: Domain.ExchangeLoss) {
        self.init(what: loss.what, reason: loss.reason, count: loss.count)
    }
}

/// The machine's time zones by IANA name (Foundation's database).
struct SystemZones: ZoneDatabase {
    func zone(named name: String) -> (any ZoneOffsets & Sendable)? {
        TimeZone(identifier: name).map(ClientZone.init)
    }
}
