/// What the loop hands a method's description: the parts of the server, from which each kind of context is made.

import Domain
import TasklsProtocol
import Wire

/// The server's parts a request may reach. Handlers never see it: each gets the context its method's `StoreUse`
/// allows (`Contexts.swift`).
///
/// A class, built once by the loop: handing it to a method's description or a context retains one reference, not
/// each of the server's parts (a struct copy retained about eleven). The loop sets `requestID` and
/// `requestedWorkDoneToken` per request and clears them after it, so a context reads them only while its handler
/// runs (the contexts that keep the token take it when they are made).
final class Environment {
    let session: Session
    let workspace: Workspace
    let persistence: Persistence
    let options: ServerOptions
    let log: ClientLog
    let progress: WorkDoneProgress
    /// The `workDoneToken` the request gave, if any.
    var requestedWorkDoneToken: ProgressToken?
    /// The id of the request being answered (nil for a notification or background work).
    var requestID: RequestID?

    init(
        session: Session, workspace: Workspace, persistence: Persistence, options: ServerOptions, log: ClientLog,
        progress: WorkDoneProgress
    ) {
        self.session = session
        self.workspace = workspace
        self.persistence = persistence
        self.options = options
        self.log = log
        self.progress = progress
    }

    /// The token to report the request's work on: nil when it gave none, or when the client did not advertise
    /// `window.workDoneProgress` (read when the work starts: `initialize` advertises it in the same request).
    var workDoneToken: ProgressToken? { progress.token(requestedWorkDoneToken) }

    var lifecycleContext: LifecycleContext { LifecycleContext(environment: self) }
    var stateContext: StateContext { StateContext(environment: self, workDoneToken: workDoneToken) }
    var readingContext: ReadingContext { ReadingContext(environment: self, workDoneToken: workDoneToken) }
    var waitingContext: WaitingContext { WaitingContext(environment: self) }
    func writingContext(method: String) -> WritingContext {
        WritingContext(reading: readingContext, method: method)
    }
}

/// The loop's own state: where the client is in the LSP lifecycle, what it asked for in `initialize`, and the exit
/// code once the loop must stop.
final class Session {
    var lifecycle = Lifecycle.waitingForInitialize
    /// Set when the loop must stop; the process exit code.
    var exitCode: Int32?
    /// The methods (for the capabilities `initialize` advertises).
    let methods: MethodTable

    init(methods: MethodTable) {
        self.methods = methods
    }
}

/// Where the server is in the LSP lifecycle.
enum Lifecycle: Equatable {
    case waitingForInitialize
    case running
    case shutDown
}
