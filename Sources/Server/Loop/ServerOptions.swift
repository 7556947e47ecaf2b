/// Settings of a server, and the wall clock.

#if canImport(Glibc)
import Glibc
#endif
import Domain
import Store
import Wire

/// Settings the executable, the REPL and the tests choose.
public struct ServerOptions: Sendable {
    /// Where the server logs (stderr by default).
    public var logger: Logger
    /// The wall clock, read once per mutation (tests pass a fixed one).
    public var clock: @Sendable () -> Timestamp
    /// Orders over more items than this are indexed off the message loop (views show `loading`).
    public var backgroundIndexThreshold: Int
    /// A clock moved only by `debug/setClock` (for tests); `clock` reads it when set.
    public var manualClock: ManualClock?
    /// The most items one step of re-evaluating dates may look at before the loop serves
    /// requests again (when the day changes, or a due time passes).
    public var timeBudget: Int
    /// Where the lists live (in memory only, by default).
    public var store: StoreLocation
    /// The journal size (bytes) past which a new snapshot is written, when it is also larger than the last one.
    public var compactionThreshold: Int
    /// Stores of at most this many bytes are read during `initialize`; larger ones off the loop.
    public var inlineLoadBytes: Int
    /// For tests: when set, loading the store waits until `debug/continueLoading` opens the gate, so a
    /// transcript can see views in `loading`.
    public var loadGate: LoadGate?
    /// For tests: compactions are written and installed on the loop, at the end of the turn that starts them,
    /// before its answers leave (`taskls serve --compact-on-loop`), so an answer proves the compaction done.
    public var compactOnLoop: Bool

    /// Seconds between the syncs the server runs by itself while any list of its store is shared with a CalDAV
    /// calendar (the first as the store opens; every minute while a list is offline); 0: only on `sync/now`.
    public var syncInterval: Int

    public init(
        logger: Logger = Logger(), clock: @escaping @Sendable () -> Timestamp = systemClock,
        backgroundIndexThreshold: Int = 50_000, manualClock: ManualClock? = nil, timeBudget: Int = Engine.defaultTimeBudget,
        store: StoreLocation = .memory, compactionThreshold: Int = 8 << 20, inlineLoadBytes: Int = 1 << 20,
        loadGate: LoadGate? = nil, compactOnLoop: Bool = false, syncInterval: Int = 300
    ) {
        self.syncInterval = syncInterval
        self.compactOnLoop = compactOnLoop
        self.inlineLoadBytes = inlineLoadBytes
        self.loadGate = loadGate
        self.logger = logger
        self.store = store
        self.compactionThreshold = compactionThreshold
        if let manualClock {
            self.clock = { @Sendable in manualClock.now }
        } else {
            self.clock = clock
        }
        self.backgroundIndexThreshold = backgroundIndexThreshold
        self.manualClock = manualClock
        self.timeBudget = timeBudget
    }
}

/// The system's real-time clock.
public let systemClock: @Sendable () -> Timestamp = {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Timestamp(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
}
