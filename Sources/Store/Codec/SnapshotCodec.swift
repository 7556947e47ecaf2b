// SnapshotCodec: a whole TaskState (a snapshot file's payload) as bytes, and back.

import Domain

/// Encodes the whole state: what a snapshot file's payload holds.
///
/// ```
/// nextIdentifier varint | revision varint
/// | varint list count | TaskLists, in the manual order of lists
/// | varint item count | Items, list by list in that order, each list's in manual order
/// ```
/// The value layouts are `ValueCodec`'s. The format version is the snapshot header's, not repeated here.
public enum SnapshotCodec {
    /// The encoding of `state`.
    /// - Complexity: O(n) for n lists and items.
    public static func encode(_ state: TaskState) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.reserveCapacity(64 + state.itemCount * 64)
        writer.writeVarint(state.nextIdentifier)
        writer.writeVarint(state.revision)
        let lists = state.allLists
        writer.writeCount(lists.count)
        for list in lists { writer.write(list) }
        writer.writeCount(state.itemCount)
        state.forEachItem { writer.write($0) }
        return writer.bytes
    }

    /// The state `bytes` encodes, reporting the fraction of items read to `progress` every 65,536 items.
    /// - Throws: `CodecError` for bytes that are truncated, malformed or followed by more bytes, and for a
    ///   state the domain refuses (`TaskState(restoring:...)`; the error's offset is then the end of the bytes).
    /// - Complexity: O(n) for n lists and items stored in manual order.
    public static func decode(_ bytes: UnsafeRawBufferPointer,
                              progress: (Double) -> Void = { _ in }) throws(CodecError) -> TaskState {
        var reader = ByteReader(bytes)
        let nextIdentifier = try reader.readVarint()
        let revision = try reader.readVarint()
        let lists = try reader.readLists()
        let items = try reader.readItems(progress: progress)
        try reader.expectEnd()
        do throws(DomainError) {
            let state = try TaskState(restoring: lists, items: items, nextIdentifier: nextIdentifier, revision: revision)
            progress(1)
            return state
        } catch {
            throw CodecError(offset: bytes.count, problem: "the stored state is refused: \(error.message)")
        }
    }
}
