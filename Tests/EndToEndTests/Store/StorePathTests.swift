/// `--store` is taken lexically: `DIR/a/../b/` is `DIR/b`, created with its missing parents, and no stray `a`.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct StorePathTests {
    @Test func aDotDotInTheStorePathCreatesNoStrayDirectory() throws {
        let parent = makeStoreTestDirectory()
        defer { removeTree(parent) }
        try #require(mkdir(parent, 0o700) == 0 || errno == EEXIST)
        let server = try StoreServer(directory: parent + "/a/../b/c/")
        try #require(server.initialize())
        #expect(server.call("store/status")?["result"]?["state"] == "ready")
        #expect(server.call("lists/create", ["name": "Inbox"])?["result"] != nil)
        server.finish()
        var info = stat()
        #expect(lstat(parent + "/a", &info) != 0 && errno == ENOENT, "a stray \(parent)/a was created")
        #expect(lstat(parent + "/b/c/journal", &info) == 0, "the store is in b/c")
    }
}
