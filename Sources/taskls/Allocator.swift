/// The process's allocator set for loading a large store quickly: called once, first thing, by `main.swift`.

#if canImport(Glibc)
import Glibc
#endif

/// Makes every thread allocate from glibc's main arena (`mallopt(M_ARENA_MAX, 1)`).
///
/// glibc gives a thread that allocates while another holds the main arena an arena of its own, and grows such an
/// arena with one mprotect(2) per page it needs: a store's load runs off the main thread and allocates about 500 MB
/// for 1M items, which took 123,000 mprotect calls (about a tenth of the load's CPU). The main arena grows with
/// brk(2) by 128 KiB or more at a time. Nothing changes where `mallopt` cannot be found (another C library).
func useOneAllocatorArena() {
    #if canImport(Glibc)
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    // RTLD_DEFAULT is the null handle: the symbol as the process resolves it.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    let arenaMaximum: Int32 = -8  // M_ARENA_MAX in <malloc.h>
    _ = mallopt(arenaMaximum, 1)
    #endif
}
