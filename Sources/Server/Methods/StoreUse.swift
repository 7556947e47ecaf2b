/// What a method does with the store, from which the loop derives everything around its handler.

/// How a method uses the store. The loop derives from it, and from nothing else, what happens around the
/// handler: committing the turn's records first, catching up with other processes, taking the lock, and what the
/// request gets while the store loads or has failed. The kind of context the handler receives follows from it
/// too, so a handler can write only if its method is registered as writing.
enum StoreUse: String, Sendable, CaseIterable {
    /// Reads nothing of the store or the lists (`server/ping`): handled at once, even in the middle of a turn
    /// whose records are not on disk yet (its answer is held with the turn's messages, and becomes an error if
    /// the turn's sync fails).
    case none
    /// Reads the store's own state, not its lists (`store/status`, `store/retry`, `debug/*`, and the lifecycle:
    /// `shutdown` must not be answered before the turn's fate is known): answered whatever the store's state,
    /// after this turn's records are committed.
    case state
    /// Reads lists, items or views: after this turn's records are committed and what other processes made
    /// durable is applied. While the store loads or has failed, the method's `waiting` handler answers (views
    /// wait in `loading` or `error`), or, without one, the request is refused (`storeLoading`, or why it failed).
    case reads
    /// Changes lists or items: the store's lock is taken (until the turn's sync) and what other processes
    /// appended is applied before the handler reads anything; its mutations are journaled and acknowledged only
    /// once on disk. Refused while the store loads or has failed.
    case writes

    /// Whether a request of this kind first commits the records this turn journaled, so it reads only what is
    /// durable (a writing request joins the turn instead; one that reads nothing need not wait).
    var commitsFirst: Bool { self == .state || self == .reads }
}
