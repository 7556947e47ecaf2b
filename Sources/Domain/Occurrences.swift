// Occurrences: a repeating item's history, kept on the item: how many occurrences were completed and skipped,
// and the most recent ones with their dues and times.

/// What happened to one occurrence of a repeating item.
public struct Occurrence: Hashable, Sendable {
    /// Whether the occurrence was completed or skipped.
    public enum Outcome: UInt8, Hashable, Sendable {
        /// Completed (`items/update` with `done: true`).
        case completed = 0
        /// Skipped (`items/skip`).
        case skipped = 1
    }

    /// The due the occurrence had.
    public let due: Due
    /// Completed or skipped.
    public let outcome: Outcome
    /// When it was completed or skipped.
    public let at: Timestamp

    /// Makes a record of one occurrence.
    public init(due: Due, outcome: Outcome, at: Timestamp) {
        self.due = due
        self.outcome = outcome
        self.at = at
    }
}

/// A repeating item's history: one identity across its occurrences, so the counts here are what COUNT uses up.
///
/// `recent` keeps the last `Occurrences.recentLimit` occurrences, oldest first; `completed` and `skipped` count
/// every one since the item was created (a rule changed or removed keeps the history: it is the item's).
public struct Occurrences: Hashable, Sendable {
    /// How many of the most recent occurrences `recent` keeps.
    public static let recentLimit = 20
    /// No history.
    public static let none = Occurrences()

    /// How many occurrences were completed.
    public internal(set) var completed: Int
    /// How many occurrences were skipped.
    public internal(set) var skipped: Int
    /// The most recent occurrences, oldest first, at most `recentLimit`.
    public internal(set) var recent: [Occurrence]

    /// A history as given (as a store holds it). Nothing is checked here: `Validation` checks it when restored.
    public init(completed: Int = 0, skipped: Int = 0, recent: [Occurrence] = []) {
        self.completed = completed
        self.skipped = skipped
        self.recent = recent
    }

    /// How many occurrences are used up (completed or skipped).
    public var used: Int { completed + skipped }

    /// The history with `occurrence` added (the oldest recent one dropped past `recentLimit`).
    /// - Complexity: O(`recentLimit`).
    public func adding(_ occurrence: Occurrence) -> Occurrences {
        var result = self
        switch occurrence.outcome {
        case .completed: result.completed += 1
        case .skipped: result.skipped += 1
        }
        result.recent.append(occurrence)
        if result.recent.count > Self.recentLimit { result.recent.removeFirst(result.recent.count - Self.recentLimit) }
        return result
    }
}
