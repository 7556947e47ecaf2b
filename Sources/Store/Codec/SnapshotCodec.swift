// SnapshotCodec: a whole TaskState (a snapshot file's payload) as bytes, and back.

import Dispatch
import Domain
import Synchronization

/// Encodes the whole state: what a snapshot file's payload holds.
///
/// ```
/// nextIdentifier varint | revision varint
/// | varint list count | TaskLists, in the manual order of lists
/// | varint item count | varint chunk count
/// | chunks: varint items in it | varint bytes it takes | Items (`ItemLayout` of the version)
/// | varint smart list count | SmartLists, in their manual order (from version 3)
/// | varint reminder count | Reminders, oldest last instant first (from version 3)
/// ```
/// Items come list by list in that order, each list's in manual order, cut into chunks of
/// `SnapshotCodec.chunkItems` so that the chunks decode in parallel.
/// The value layouts are `ValueCodec`'s. The format version is the snapshot header's, not repeated here.
public enum SnapshotCodec {
    /// The encoding of `state`.
    /// - Complexity: O(n) for n lists and items.
    public static func encode(_ state: TaskState) -> [UInt8] { encode(state.stored) }

    /// The encoding of a state as `TaskState.stored` shares it (so it can run on another thread).
    /// - Complexity: O(n) for n lists and items.
    public static func encode(_ state: StoredState) -> [UInt8] { encode(state, version: StoreFormat.snapshotVersion) }

    /// The encoding in format `version`: 4 (what is written), 3 (items without uids or extras: what taskls wrote
    /// before import), 2 (items without repeat rules or alerts either, no smart lists, no reminders) or 1 (items
    /// without parents either: before subtasks); 1 to 3 are made only by the tests of the upgrade from them
    /// (precondition: nothing in the state is what its format lacks).
    static func encode(_ state: StoredState, version: UInt32) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.reserveCapacity(64 + state.itemCount * 64)
        writer.writeVarint(state.nextIdentifier)
        writer.writeVarint(state.revision)
        let lists = state.lists
        writer.writeCount(lists.count)
        for list in lists { writer.write(list) }
        writer.writeCount(state.itemCount)
        writer.writeCount((state.itemCount + chunkItems - 1) / chunkItems)
        var chunk = ByteWriter()
        var inChunk = 0
        func endChunk() {
            writer.writeCount(inChunk)
            writer.writeCount(chunk.bytes.count)
            writer.bytes += chunk.bytes
            chunk.bytes.removeAll(keepingCapacity: true)
            inChunk = 0
        }
        state.forEachItem { item in
            precondition(version >= 2 || item.parent == nil, "format 1 has no parents")
            precondition(version >= 3 || (item.repeatRule == nil && item.occurrences == .none && item.alerts.isEmpty),
                         "format 2 has no repeats or alerts")
            precondition(version >= 4 || (item.uid == nil && item.extras.isEmpty), "format 3 has no uids or extras")
            chunk.write(item, layout: ItemLayout(snapshotVersion: version))
            inChunk += 1
            if inChunk == chunkItems { endChunk() }
        }
        if inChunk > 0 { endChunk() }
        precondition(version >= 3 || state.smartLists.isEmpty, "formats 1 and 2 have no smart lists")
        if version >= 3 {
            writer.writeCount(state.smartLists.count)
            for smartList in state.smartLists { writer.write(smartList) }
            let reminders = state.reminders
            writer.writeCount(reminders.count)
            for reminder in reminders { writer.write(reminder) }
        }
        return writer.bytes
    }

    /// The state `bytes` encodes, reporting progress to `progress` (0.5 once the chunks are decoded, then 1).
    /// - Throws: `CodecError` for bytes that are truncated, malformed or followed by more bytes, and for a
    ///   state the domain refuses (`TaskState(restoring:...)`; the error's offset is then the end of the bytes).
    /// - Complexity: O(n) for n lists and items stored in manual order.
    public static func decode(_ bytes: UnsafeRawBufferPointer, version: UInt32 = 4,
                              progress: (Double) -> Void = { _ in }) throws(CodecError) -> TaskState {
        guard let state = try decode(bytes, version: version, checksum: nil, progress: progress) else {
            // Without a checksum none is refused: not reached.
            throw CodecError(offset: 0, problem: "the checksum does not match")
        }
        return state
    }

    /// As `decode(_:version:progress:)`, checking that `bytes` have the CRC32 `checksum` while the chunks decode
    /// (the checksum is one more task beside them, on whichever core is free).
    /// - Returns: nil when the checksum does not match: the bytes are damaged, and that is said before anything
    ///   their decoding found (nothing decoded is kept, and no state is built from them).
    /// - Throws: as `decode(_:version:progress:)`, when the checksum matches.
    /// - Complexity: O(n) for n lists and items stored in manual order, plus O(bytes) for the checksum.
    public static func decode(_ bytes: UnsafeRawBufferPointer, version: UInt32 = 4, checksum: UInt32?,
                              progress: (Double) -> Void = { _ in }) throws(CodecError) -> TaskState? {
        var computed: UInt32?
        /// Whether the bytes have the expected checksum (computed here when the chunks' task did not).
        func intact() -> Bool {
            guard let checksum else { return true }
            return (computed ?? CRC32.checksum(bytes)) == checksum
        }
        do throws(CodecError) {
            var reader = ByteReader(bytes)
            let nextIdentifier = try reader.readVarint()
            let revision = try reader.readVarint()
            let lists = try reader.readLists()
            let items = try readChunks(&reader, nextIdentifier: nextIdentifier, layout: ItemLayout(snapshotVersion: version),
                                       checksumming: checksum != nil, checksum: &computed, progress: progress)
            let smartLists = version >= 3 ? try reader.readSmartLists() : []
            var reminders: [Reminder] = []
            if version >= 3 {
                let count = try reader.readCount(minimumSize: 5)
                reminders.reserveCapacity(count)
                for _ in 0..<count { reminders.append(try reader.readReminder()) }
            }
            try reader.expectEnd()
            guard intact() else { return nil }
            do throws(DomainError) {
                var state = try TaskState(restoring: lists, prepared: try items.get(), nextIdentifier: nextIdentifier, revision: revision)
                try state.restoreSnapshotSmartLists(smartLists)
                try state.restoreReminders(reminders)
                progress(1)
                return state
            } catch {
                throw CodecError(offset: bytes.count, problem: "the stored state is refused: \(error.message)")
            }
        } catch {
            guard intact() else { return nil }
            throw error
        }
    }
}

extension SnapshotCodec {
    /// Items per chunk. (Chunks of 4,096 did not pay: a 10k store decoded in three chunks on two cores started no
    /// sooner, 28.2 against 27.6 ms to a ready view, the worker thread's own start and arena costing what it saved.)
    static let chunkItems = 65_536

    /// Reads the chunk headers, then decodes the chunks on every core.
    /// - Complexity: O(n) work, about O(n / cores) time.
    /// The items of each chunk, validated and boxed for the state (`TaskState.prepareRestoring`), or the first
    /// refusal of the domain; a malformed chunk throws.
    /// When `checksumming`, also computes the CRC32 of the reader's whole buffer, as one more task, into `checksum`.
    private static func readChunks(_ reader: inout ByteReader, nextIdentifier: UInt64, layout: ItemLayout,
                                   checksumming: Bool, checksum: inout UInt32?,
                                   progress: (Double) -> Void) throws(CodecError) -> Result<[PreparedItems], DomainError> {
        let total = try reader.readCount(minimumSize: ValueCodec.minimumItemSize)
        let count = try reader.readCount(minimumSize: 2)
        var chunks: [(items: Int, bytes: Range<Int>)] = []
        chunks.reserveCapacity(count)
        var sum = 0
        for _ in 0..<count {
            let items = try reader.readCount(minimumSize: ValueCodec.minimumItemSize)
            let length = try reader.readCount()
            chunks.append((items, reader.offset..<(reader.offset + length)))
            try reader.skip(length)
            sum += items
        }
        guard sum == total else {
            throw CodecError(offset: reader.offset, problem: "the chunks hold \(sum) items, the snapshot says \(total)")
        }
        let buffer = SharedBytes(buffer: reader.buffer)
        let ranges = chunks
        let results = Mutex<[Result<Result<PreparedItems, DomainError>, CodecError>?]>(Array(repeating: nil, count: count))
        let computed = Mutex<UInt32?>(nil)
        // The checksum first, so that it overlaps the chunks rather than running alone after the last of them.
        DispatchQueue.concurrentPerform(iterations: count + (checksumming ? 1 : 0)) { task in
            if checksumming && task == 0 {
                let value = CRC32.checksum(buffer.buffer)
                computed.withLock { $0 = value }
                return
            }
            let index = checksumming ? task - 1 : task
            let chunk = ranges[index]
            var chunkReader = ByteReader(UnsafeRawBufferPointer(rebasing: buffer.buffer[..<chunk.bytes.upperBound]), offset: chunk.bytes.lowerBound)
            let result: Result<Result<PreparedItems, DomainError>, CodecError>
            do throws(CodecError) {
                // Each item validated and boxed as soon as it is read (no array of items in between); a refused
                // one stops the boxing, not the reading, so that malformed bytes later in the chunk still throw.
                let prepared = PreparedItems(capacity: chunk.items)
                var refusal: DomainError?
                var tagLists: [[String]: [String]]? = [:]
                for _ in 0..<chunk.items {
                    let item = try chunkReader.readItem(layout: layout, sharing: &tagLists)
                    guard refusal == nil else { continue }
                    do throws(DomainError) {
                        try prepared.add(item, nextIdentifier: nextIdentifier)
                    } catch {
                        refusal = error
                    }
                }
                try chunkReader.expectEnd()
                result = .success(refusal.map { .failure($0) } ?? .success(prepared))
            } catch {
                result = .failure(error)
            }
            results.withLock { $0[index] = result }
        }
        progress(0.5)
        if checksumming { checksum = computed.withLock { $0 } }
        var prepared: [PreparedItems] = []
        prepared.reserveCapacity(count)
        for result in results.withLock({ $0 }) {
            switch try result!.get() {
            case .success(let items): prepared.append(items)
            case .failure(let refusal): return .failure(refusal)
            }
        }
        return .success(prepared)
    }
}

/// Bytes read by several threads at once, none writing.
private struct SharedBytes: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
}
