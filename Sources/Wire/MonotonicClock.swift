/// The monotonic clock, for deadlines and timings (never for dates).

#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock.
public func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Milliseconds on the monotonic clock.
public func monotonicMilliseconds() -> Int64 {
    Int64(monotonicNanoseconds() / 1_000_000)
}
