/// A full disk (a 1 MiB tmpfs) refuses just the mutation that does not fit, with `storeFull`; the server
/// keeps serving, the next mutation after space is freed succeeds, and nothing acknowledged is lost.
///
/// Needs root (to mount the tmpfs). Prints `store-disk-full: ran` or `store-disk-full: skipped (REASON)` on
/// stderr, so CI, which runs as root, can check that it ran.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct DiskFullTests {
    @Test(.enabled("needs root and `mount -t tmpfs` (the reason is on stderr: store-disk-full: skipped)") {
        let probe = makeStoreTestDirectory()
        defer { removeTree(probe) }
        if let reason = Tmpfs.mount(at: probe) {
            writeToStandardError("store-disk-full: skipped (\(reason))\n")
            return false
        }
        Tmpfs.unmount(probe)
        return true
    })
    func aFullDiskRefusesOneMutationAndLosesNothing() throws {
        defer { writeToStandardError("store-disk-full: ran\n") }
        let mountPoint = makeStoreTestDirectory()
        if let reason = Tmpfs.mount(at: mountPoint) {
            Issue.record("the tmpfs mounted a moment ago does not mount now: \(reason)")
            return
        }
        defer {
            Tmpfs.unmount(mountPoint)
            removeTree(mountPoint)
        }
        let directory = mountPoint + "/store"
        let filler = mountPoint + "/filler"
        try writeFile(filler, [UInt8](repeating: 0x2e, count: 600 << 10))

        let server = try StoreServer(directory: directory)
        try #require(server.initialize())
        try #require(server.call("lists/create", ["name": "Big"])?["result"] != nil)
        let notes = String(repeating: "n", count: 50_000)
        var acknowledged: [(id: JSON, title: String)] = []
        var refused: JSON?
        for number in 1...40 {
            let title = "big \(number)"
            let before = StoreFiles.size(directory + "/journal")
            let answer = try #require(server.call("items/create", ["list": "l1", "title": .string(title), "notes": .string(notes)]),
                                      "no answer to item \(number)")
            if let item = answer["result"]?["item"] {
                acknowledged.append((item["id"] ?? .null, title))
                continue
            }
            refused = answer
            #expect(StoreFiles.size(directory + "/journal") == before, "a refused mutation left bytes in the journal")
            break
        }
        let refusal = try #require(refused, "1 MiB filled up without any refusal")
        #expect(refusal["error"]?["code"] == -32803 && refusal.errorReason == "storeFull", "\(refusal.text)")
        #expect(refusal["error"]?["data"]?["retryable"] == true, "\(refusal.text)")
        try #require(!acknowledged.isEmpty, "the first mutation was already refused")

        // Still serving, still writable.
        #expect(server.call("server/ping")?["result"] == [:])
        let overview = server.call("lists/list")?["result"]
        #expect(overview?["lists"]?.firstList?["total"] == .integer(Int64(acknowledged.count)), "\(overview?.text ?? "no answer")")
        #expect(server.call("store/status")?["result"]?["state"] == "ready")

        unlink(filler)
        let freed = server.call("items/create", ["list": "l1", "title": "after freeing space", "notes": .string(notes)])
        let item = try #require(freed?["result"]?["item"], "the first mutation after space was freed: \(freed?.text ?? "no answer")")
        acknowledged.append((item["id"] ?? .null, "after freeing space"))
        server.process.terminate()

        let reopened = try StoreServer(directory: directory)
        try #require(reopened.initialize())
        let reopenedOverview = reopened.call("lists/list")?["result"]
        #expect(reopenedOverview?["lists"]?.firstList?["total"] == .integer(Int64(acknowledged.count)),
                "\(reopenedOverview?.text ?? "no answer")")
        for (id, title) in acknowledged {
            let got = reopened.call("items/get", ["id": id])?["result"]
            #expect(got?.string("title") == title && got?.string("notes")?.count == notes.count, "\(id.text) after the reopen")
        }
        reopened.finish()
        let check = try storeCheck(directory)
        #expect(check.status == 0 && check.report.contains("ok: 1 lists, \(acknowledged.count) items"), "\(check.report)")
    }
}

extension JSON {
    /// The first element of an array.
    fileprivate var firstList: JSON? {
        if case .array(let elements) = self { return elements.first }
        return nil
    }
}

/// Mounting a small tmpfs with the system's `mount`.
enum Tmpfs {
    /// Mounts a 1 MiB tmpfs at `directory`; nil when it worked, else why not.
    static func mount(at directory: String) -> String? {
        guard getuid() == 0 else { return "not running as root" }
        guard let mount = firstExecutable(["/bin/mount", "/usr/bin/mount", "/sbin/mount", "/usr/sbin/mount"]) else {
            return "no mount command"
        }
        do {
            let run = try runProgram(mount, ["-t", "tmpfs", "-o", "size=1m", "tmpfs", directory])
            return run.status == 0 ? nil : "mount -t tmpfs exits \(run.status): \(run.error.split(separator: "\n").first ?? "")"
        } catch {
            return "cannot run mount: \(error)"
        }
    }

    /// Unmounts `directory` (lazily, when something still holds it).
    static func unmount(_ directory: String) {
        guard let umount = firstExecutable(["/bin/umount", "/usr/bin/umount", "/sbin/umount", "/usr/sbin/umount"]) else { return }
        if (try? runProgram(umount, [directory]))?.status != 0 {
            _ = try? runProgram(umount, ["-l", directory])
        }
    }
}

/// The first of `paths` that is an executable file.
func firstExecutable(_ paths: [String]) -> String? {
    paths.first { path in access(path, X_OK) == 0 }
}

/// Writes a line to this process's stderr (for CI to read, beside the test report).
func writeToStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
