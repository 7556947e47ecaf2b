/// The parser's stack of finished values: one per open container's members, moved out whole when it closes.

/// A stack the parser pushes each container's finished elements onto, shared by every level of nesting.
///
/// When a container closes, its elements (the top of the stack) are moved into one array of exactly
/// their count: one allocation per array or object, instead of an array grown by doubling per container.
/// What is left on the stack when the parser stops (after an error) is destroyed with it.
struct ValueStack<Element>: ~Copyable {
    /// The storage, allocated at the first push (a document of scalars needs none).
    private var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// How many elements are on the stack.
    private(set) var count = 0

    /// An empty stack; it allocates nothing until the first push.
    init() {}

    deinit {
        guard let base else { return }
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Pushes one element.
    /// - Complexity: O(1) amortized.
    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count += 1
    }

    private mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }

    /// Moves the elements from position `start` to the top into a new array, in order, and pops them.
    /// - Complexity: O(count - start).
    mutating func popArray(from start: Int) -> [Element] {
        let length = count - start
        guard length > 0 else { return [] }
        let source = base.unsafelyUnwrapped + start
        count = start
        // Appending to a reserved array, not `init(unsafeUninitializedCapacity:)`: that one looks the array's
        // storage class up in the runtime's metadata cache on every call.
        var array: [Element] = []
        array.reserveCapacity(length)
        for offset in 0..<length { array.append((source + offset).move()) }
        return array
    }
}
