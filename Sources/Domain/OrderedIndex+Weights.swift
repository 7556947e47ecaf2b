// The weights a leaf keeps when its keys may weigh more than 1: how many of its keys do, and then each one's weight.

extension OrderedIndex.Node {
    // A leaf that keeps weights counts its keys that weigh more than 1 in its header (`heavyCount`), which
    // a search reads anyway, so a leaf whose keys all weigh 1 (a count of 0) answers as an unweighted one
    // does: its weights are not read or written, and the processor, predicting that, fetches the key a rank
    // points at while it checks. While the count is 0 the weights are stale; the first heavy key writes
    // them all (`materialize`).

    /// In a leaf that keeps weights: where the weight of its first key is, after the room for keys (an
    /// address known without reading the leaf); valid while some key is heavy.
    private var weights: UnsafeMutablePointer<Int32> {
        withUnsafeMutablePointerToElements { keys in
            let offset = OrderedIndex.Node.countsOffset(keyRoom: OrderedIndex.leafCapacity + 1)
            return (UnsafeMutableRawPointer(keys) + offset).assumingMemoryBound(to: Int32.self)
        }
    }

    /// In a leaf, whether every key weighs 1: always when `Key.hasUnitWeights`, else when none is heavy.
    @inline(__always)
    var weighsOne: Bool { Key.hasUnitWeights || heavyCount == 0 }

    /// In a leaf, the weight of the key at index. Precondition: `0 <= index < keyCount` (unchecked).
    /// - Complexity: O(1); reads no weight when every key in the leaf weighs 1.
    @inline(__always)
    func weight(at index: Int) -> Int {
        weighsOne ? 1 : Int(weights[index])
    }

    /// In a leaf, the sum of the weights of the keys before `end`: `end` when every key in it weighs 1.
    /// - Complexity: O(end), or O(1) when every key in the leaf weighs 1.
    @inline(__always)
    func weightBefore(_ end: Int) -> Int {
        if weighsOne { return end }
        let weights = self.weights
        var sum = 0
        for index in 0..<end { sum &+= Int(weights[index]) }
        return sum
    }

    /// In a leaf, the index of the key whose span holds `offset` (the weight before the key, at most
    /// `offset`, plus its weight, more than `offset`), and that span's start. Precondition:
    /// `0 <= offset < totalWeight(height: 0)` (unchecked).
    /// - Complexity: O(fan-out), or O(1) when every key in the leaf weighs 1.
    @inline(__always)
    func entry(covering offset: Int) -> (index: Int, start: Int) {
        if weighsOne { return (offset, offset) }
        let weights = self.weights
        var index = 0
        var start = 0
        while offset >= start &+ Int(weights[index]) {
            start &+= Int(weights[index])
            index &+= 1
        }
        return (index, start)
    }

    // Keeping the weights as the keys change: called by the key mutators of a leaf that keeps weights.

    /// Writes weight 1 for the keys in range: the weights of keys that all weighed 1, not kept until now.
    private func materialize(_ range: Range<Int>) {
        (weights + range.lowerBound).initialize(repeating: 1, count: range.count)
    }

    /// Records `weight` for the key just inserted at index (the keys after it moved up by one).
    func weightInserted(_ weight: Int, at index: Int) {
        let heavy = heavyCount
        if heavy == 0 {
            if weight == 1 { return }
            materialize(0..<keyCount)
        } else {
            (weights + index + 1).moveInitialize(from: weights + index, count: keyCount - 1 - index)
        }
        weights[index] = Int32(weight)
        if weight > 1 { heavyCount = heavy + 1 }
    }

    /// Drops the weight of the key at index, about to be removed.
    func weightRemoved(at index: Int) {
        let heavy = heavyCount
        if heavy == 0 { return }
        if weights[index] > 1 { heavyCount = heavy - 1 }
        (weights + index).moveInitialize(from: weights + index + 1, count: keyCount - index - 1)
    }

    /// Records `weight` for the key that replaced the one at index.
    func weightReplaced(by weight: Int, at index: Int) {
        let heavy = heavyCount
        if heavy == 0 {
            if weight == 1 { return }
            materialize(0..<keyCount)
            heavyCount = 1
        } else {
            heavyCount = heavy + (weight > 1 ? 1 : 0) - (weights[index] > 1 ? 1 : 0)
        }
        weights[index] = Int32(weight)
    }

    /// Records the weights of the keys just appended, from `start` on, `heavy` of which weigh more than 1.
    /// - Complexity: O(1) while every key weighs 1, else O(keyCount).
    func weightsAppended(from start: Int, heavy: Int32) {
        let old = heavyCount
        if old == 0 && heavy == 0 { return }
        if old == 0 { materialize(0..<start) }
        withKeys { keys in
            for index in start..<keys.count { weights[index] = Int32(keys[index].weight) }
        }
        heavyCount = old + heavy
    }

    /// Gives this leaf, a copy of `source` that recorded no weights, the weights `source` keeps.
    /// - Complexity: O(keyCount)
    func copyWeights(of source: OrderedIndex.Node) {
        heavyCount = source.heavyCount
        if heavyCount > 0 { weights.initialize(from: source.weights, count: keyCount) }
    }

    /// Moves the weights of `source`'s keys from `start` on after this leaf's, as their keys are about to
    /// move (both leaves keep weights).
    /// - Complexity: O(source.keyCount - start), plus O(keyCount) when the first heavy key arrives.
    func weightsMoved(from source: OrderedIndex.Node, startingAt start: Int) {
        let moved = source.keyCount - start
        let sourceHeavy = source.heavyCount
        var heavy: Int32 = 0
        if sourceHeavy > 0 {
            for index in start..<source.keyCount where source.weights[index] > 1 { heavy += 1 }
        }
        let own = heavyCount
        if heavy > 0 {
            if own == 0 { materialize(0..<keyCount) }
            (weights + keyCount).initialize(from: source.weights + start, count: moved)
            heavyCount = own + heavy
            source.heavyCount = sourceHeavy - heavy
        } else if own > 0 {
            materialize(keyCount..<keyCount + moved)
        }
    }

    /// Traps unless the weights this leaf keeps (if it keeps them) are its keys': its heavy count is the
    /// number of its keys weighing more than 1 and, when that is not 0, each weight is its key's.
    /// - Complexity: O(keyCount)
    func checkWeights() {
        if Key.hasUnitWeights { return }
        withKeys { keys in
            let heavy = keys.reduce(0) { $0 + ($1.weight > 1 ? 1 : 0) }
            precondition(Int(heavyCount) == heavy, "leaf records \(heavyCount) heavy keys but holds \(heavy)")
            for (index, key) in keys.enumerated() {
                precondition(weight(at: index) == key.weight, "recorded weight differs from the key's")
            }
        }
    }
}
