/// A FIFO, a directory or a socket named `snapshot`, `journal` or `lock` in the store never blocks the server and is
/// never read: `initialize` is answered, views and `store/status` say `error` naming the file, and closing stdin
/// ends the process.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct NotRegularFileTests {
    static let cases: [(name: String, kind: String)] = ["snapshot", "journal", "lock"].flatMap { name in
        [(name, "fifo"), (name, "directory"), (name, "socket")]
    }

    @Test(arguments: cases)
    func aStoreFileThatIsNotARegularFileIsRefused(name: String, kind: String) throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        try #require(mkdir(directory, 0o700) == 0 || errno == EEXIST)
        let path = directory + "/" + name
        switch kind {
        case "fifo": try #require(mkfifo(path, 0o600) == 0)
        case "directory": try #require(mkdir(path, 0o700) == 0)
        default: try #require(bindSocket(at: path))
        }
        let server = try StoreServer(directory: directory)
        try #require(server.initialize(), "\(name) (\(kind)): initialize must be answered")
        let status = try #require(server.call("store/status")?["result"])
        #expect(status["state"] == "error", "\(name) (\(kind)): \(status.text)")
        let message = status.string("message") ?? ""
        #expect(message.contains(path) && message.contains("not a regular file"), "\(name) (\(kind)): \(message)")
        let view = server.call("lists/open", ["group": "all"])?["result"]
        #expect(view?["state"] == "error" && view?["error"]?.string("message") == message, "\(view?.text ?? "no answer")")
        #expect(server.call("lists/create", ["name": "Inbox"])?.errorReason == "storeFailed")
        #expect(server.finish() != nil, "\(name) (\(kind)): closing stdin must end the process")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG, "the file is left as it was")
    }
}

/// Creates a Unix socket bound at `path` (the socket itself is closed; the file stays).
private func bindSocket(at path: String) -> Bool {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in bytes.enumerated() { buffer[index] = byte }
    }
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    } == 0
}
