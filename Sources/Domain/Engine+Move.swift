// Index-addressed moves: translating "move these rows of my view to here" into a move by ids.

extension Engine {
    /// Translates a move of the rows at ranks `rows` of `view` into a `moveItems` mutation, for the server to
    /// apply right away. `to` is the rank the block's first row has after the move, as in a `move` operation:
    /// 0 moves the block to the top, `count - rows.count` to the bottom.
    ///
    /// Only a manual ascending view can be reordered; the translation to the list's manual order is done here.
    /// - Throws: `unknownView`; `staleVersion` when `seenVersion` is not the view's version; `refused`
    ///   with reason `sortedView` for any other sort; `invalidField("rows")` or `invalidField("to")` out of range.
    /// - Complexity: O(log n + rows.count).
    public func moveMutation(view: ViewID, rows: Range<Int>, to target: Int, seenVersion: UInt64,
                             at time: Timestamp) throws(DomainError) -> Mutation {
        guard let open = views[view] else { throw .unknownView(view) }
        guard seenVersion == open.version else {
            throw .staleVersion(view: view, seen: seenVersion, current: open.version)
        }
        guard open.spec.isManualOrder, let list = open.spec.source.list, let order = index(open.spec) else {
            throw .refused(reason: "sortedView",
                           message: "view \(view) is not in manual ascending order; rows can only be reordered in manual order")
        }
        guard !rows.isEmpty, rows.lowerBound >= 0, rows.upperBound <= order.count else {
            throw .invalidField(field: "rows", problem: "must be a non-empty range within 0..<\(order.count)")
        }
        let remaining = order.count - rows.count
        guard (0...remaining).contains(target) else {
            throw .invalidField(field: "to", problem: "must be within 0...\(remaining)")
        }
        let ids = order.keys(in: rows).map(\.item)
        let before = target < remaining ? order.key(at: target < rows.lowerBound ? target : target + rows.count).item : nil
        return .moveItems(ids: ids, toList: list, before: before, at: time)
    }
}
