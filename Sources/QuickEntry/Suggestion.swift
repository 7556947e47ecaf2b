/// "Did you mean …?": the nearest known words to a misspelt one, by edit distance.

/// Near misses among known words.
enum Suggestion {
    /// The known word nearest to `word` (ties: the first in `known`), if it is near enough: at most one edit
    /// for words of up to 4 characters, two for longer ones (an edit inserts, deletes, replaces or swaps two
    /// neighbouring characters).
    static func nearest(to word: String, among known: [String]) -> String? {
        nearest(to: word, among: known, limit: 1).first
    }

    /// Up to `limit` known words near `word`, nearest first.
    /// - Complexity: O(known × length²); words over 64 characters are never near anything.
    static func nearest(to word: String, among known: [String], limit: Int) -> [String] {
        let typed = Array(word.unicodeScalars)
        guard !typed.isEmpty, typed.count <= 64 else { return [] }
        let allowed = typed.count <= 4 ? 1 : 2
        var found: [(distance: Int, order: Int, word: String)] = []
        for (order, candidate) in known.enumerated() {
            let scalars = Array(candidate.unicodeScalars)
            guard abs(scalars.count - typed.count) <= allowed, scalars != typed else { continue }
            let distance = editDistance(typed, scalars)
            if distance <= allowed { found.append((distance, order, candidate)) }
        }
        return found.sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }.prefix(limit).map(\.word)
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { best = min(best, before[j - 2] + 1) }
                current[j] = best
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
