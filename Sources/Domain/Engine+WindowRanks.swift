// A view's window operations from ranks: each changed item's row index before and after, with the window's bounds.

/// How many view refreshes derived their window operations from ranks and how many by a diff of the window.
public struct WindowPaths: Sendable, Equatable {
    /// Refreshes whose operations came from the changed items' ranks: O(changes × depth × log n).
    public var byRank = 0
    /// Refreshes that diffed the window (`WindowDiff`): O(window).
    public var byDiff = 0

    public init() {}
}
