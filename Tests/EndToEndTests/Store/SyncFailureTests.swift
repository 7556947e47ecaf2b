/// A failing `fdatasync` acknowledges nothing from then on: the turn's requests get `storeFailed`, views
/// switch to `error`, the server keeps answering, and a reopen shows exactly what was acknowledged before.
/// Failed by the server's own hook (`TASKLS_FAIL_SYNC_AFTER`) and by an LD_PRELOAD shim that fails the real
/// system calls.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct SyncFailureTests {
    @Test func theServersHookFailingEverySyncAfterTheThirdWriteTurn() throws {
        let allowed = try syncsOfThreeWriteTurns()
        try checkNothingIsAcknowledgedAfterAFailedSync(environment: ["TASKLS_FAIL_SYNC_AFTER": "\(allowed)"])
    }

    @Test(.enabled("needs a C compiler for the LD_PRELOAD shim (the reason is on stderr: store-sync-shim: skipped)") {
        SyncShim.compilerAvailable(marker: "store-sync-shim")
    })
    func anLDPreloadShimFailingTheRealFdatasync() throws {
        defer { writeToStandardError("store-sync-shim: ran\n") }
        let allowed = try syncsOfThreeWriteTurns()
        let library = try SyncShim.build()
        defer { removeTree(library.directory) }
        try checkNothingIsAcknowledgedAfterAFailedSync(environment: ["LD_PRELOAD": library.path, SyncShim.variable: "\(allowed)"])
    }
}

/// How many syncs a fresh store makes before its fourth write turn: those of creating it (counted from the
/// crash hook's log of a server that only initializes), then one per write turn.
private func syncsOfThreeWriteTurns() throws -> Int {
    let directory = makeStoreTestDirectory()
    let log = directory + ".steps"
    defer {
        removeTree(directory)
        unlink(log)
    }
    let server = try StoreServer(directory: directory, environment: ["TASKLS_CRASH_LOG": log])
    try #require(server.initialize())
    server.finish()
    let steps = String(decoding: readFile(log) ?? [], as: UTF8.self).split(separator: "\n")
    return steps.filter { $0.contains("sync") }.count + 3
}

/// Three write turns acknowledged, then a turn whose sync fails: nothing of it or after it is acknowledged,
/// the open view switches to `error`, reads are answered, `store/retry` shows the acknowledged state (and
/// still cannot write), and a reopen without the fault shows exactly the acknowledged mutations.
private func checkNothingIsAcknowledgedAfterAFailedSync(environment: [String: String]) throws {
    let directory = makeStoreTestDirectory()
    defer { removeTree(directory) }
    let server = try StoreServer(directory: directory, environment: environment)
    try #require(server.initialize())
    try #require(server.call("lists/create", ["name": "Inbox"])?["result"] != nil)
    let view = try #require(server.call("lists/open", ["list": "l1"])?["result"]?["view"])
    let together = server.callTogether([server.makeRequest("items/create", ["list": "l1", "title": "one"]),
                                        server.makeRequest("items/create", ["list": "l1", "title": "two"])])
    try #require(together.allSatisfy { $0?["result"] != nil }, "\(together.map { $0?.text ?? "no answer" })")
    try #require(server.call("items/update", ["id": "i2", "done": true])?["result"] != nil)
    let acknowledged = try #require(server.observe())
    _ = server.takeNotifications()

    // The fourth write turn: its sync fails, so none of its three requests is acknowledged.
    let failing = server.callTogether([server.makeRequest("items/create", ["list": "l1", "title": "three"]),
                                       server.makeRequest("items/update", ["id": "i3", "title": "two again"]),
                                       server.makeRequest("lists/create", ["name": "Other"])])
    for answer in failing {
        #expect(answer?.errorReason == "storeFailed" && answer?["error"]?["data"]?["retryable"] == true,
                "a request of the failed turn: \(answer?.text ?? "no answer")")
    }
    let switched = server.awaitNotification { $0["method"] == "view/changed" && $0["params"]?["view"] == view }
    let changes = server.takeNotifications().filter { $0["params"]?["view"] == view }
    #expect(switched, "no view/changed after the failed sync")
    #expect(!changes.isEmpty && changes.allSatisfy { $0["method"] == "view/changed" && $0["params"]?["state"] == "error" },
            "the view must switch to error and show nothing of the failed turn: \(changes.map(\.text))")
    let message = changes.last?["params"]?["error"]?.string("message") ?? ""
    #expect(message.contains(directory + "/journal") && message.contains("Input/output error"), "\(message)")

    // Later writes are refused too, alone or together; reads are answered.
    let later = server.callTogether([server.makeRequest("items/delete", ["ids": ["i2"]]),
                                     server.makeRequest("lists/update", ["id": "l1", "name": "Renamed"])])
    let alone = server.call("items/create", ["list": "l1", "title": "four"])
    for answer in later + [alone] {
        #expect(answer?.errorReason == "storeFailed", "a write after the failure: \(answer?.text ?? "no answer")")
    }
    #expect(server.call("server/ping")?["result"] == [:])
    #expect(server.call("lists/list")?["result"]?["store"]?["state"] == "error")
    #expect(server.call("store/status")?["result"]?["state"] == "error")
    #expect(server.call("view/snapshot", ["view": view])?["result"]?["state"] == "error")

    // Retrying reopens the store: the acknowledged state, and still no write gets through.
    #expect(server.call("store/retry")?["result"]?["retried"] == true)
    #expect(server.observe() == acknowledged, "after store/retry")
    let afterRetry = server.call("items/create", ["list": "l1", "title": "five"])
    #expect(afterRetry?.errorReason == "storeFailed", "a write after the retry: \(afterRetry?.text ?? "no answer")")
    server.finish()

    let reopened = try StoreServer(directory: directory)
    try #require(reopened.initialize())
    #expect(reopened.observe() == acknowledged, "a reopen must show exactly the acknowledged mutations")
    reopened.finish()
    let check = try storeCheck(directory)
    #expect(check.status == 0 && check.report.contains("ok: 1 lists, 2 items"), "\(check.report)")
}

/// A shared library that replaces `fdatasync` and `fsync`: the first N calls (N from `TASKLS_TEST_SYNCS_BEFORE_EIO`)
/// reach the kernel, every later one fails with EIO.
enum SyncShim {
    static let variable = "TASKLS_TEST_SYNCS_BEFORE_EIO"

    static let source = """
        #define _GNU_SOURCE
        #include <errno.h>
        #include <stdlib.h>
        #include <unistd.h>
        #include <sys/syscall.h>

        static long calls;

        static int must_fail(void) {
            const char *limit = getenv("\(variable)");
            long count = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
            return limit != NULL && count > atol(limit);
        }

        int fdatasync(int fd) {
            if (must_fail()) { errno = EIO; return -1; }
            return (int)syscall(SYS_fdatasync, fd);
        }

        int fsync(int fd) {
            if (must_fail()) { errno = EIO; return -1; }
            return (int)syscall(SYS_fsync, fd);
        }

        """

    /// clang (which ships with the Swift toolchain), else cc or gcc, from PATH.
    static let compiler: String? = {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init)
        for name in ["clang", "cc", "gcc"] {
            if let found = firstExecutable(directories.map { $0 + "/" + name }) { return found }
        }
        return nil
    }()

    /// Whether a C compiler is there to build a shim; when not, says `MARKER: skipped (reason)` on stderr.
    static func compilerAvailable(marker: String) -> Bool {
        if compiler != nil { return true }
        writeToStandardError("\(marker): skipped (no clang, cc or gcc on PATH)\n")
        return false
    }

    /// Compiles the shim into a new directory; the library's path and that directory.
    static func build() throws -> (path: String, directory: String) {
        let compiler = try #require(compiler)
        let directory = makeStoreTestDirectory()
        let sourcePath = directory + "/sync-shim.c"
        let library = directory + "/sync-shim.so"
        try writeFile(sourcePath, Array(source.utf8))
        let run = try runProgram(compiler, ["-shared", "-fPIC", "-O1", "-o", library, sourcePath])
        try #require(run.status == 0, "\(compiler) exits \(run.status): \(run.error)")
        return (library, directory)
    }
}
