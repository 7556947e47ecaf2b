// The system's certificate store, the only one URLSession on Linux reads (libcurl's built-in bundle,
// /etc/ssl/certs/ca-certificates.crt on Debian): a test CA installed in it the way a user installs their server's,
// through /usr/local/share/ca-certificates and update-ca-certificates, and removed afterwards.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

enum SystemTrustStore {
    static let localDirectory = "/usr/local/share/ca-certificates"
    /// The directory of links to each trusted certificate (by name and by subject hash), and the bundle of them all.
    static let links = "/etc/ssl/certs"
    static let bundle = "/etc/ssl/certs/ca-certificates.crt"

    /// The `update-ca-certificates` program, or nil when it is not installed.
    static let updater: String? = ["/usr/sbin/update-ca-certificates", "/usr/bin/update-ca-certificates"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Why a CA cannot be installed here, or nil when it can (as root, with update-ca-certificates).
    static var unavailability: String? {
        if getuid() != 0 { return "not root: a test CA cannot be installed in the system store" }
        if updater == nil { return "update-ca-certificates is not installed" }
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: localDirectory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            return "\(localDirectory) is not there"
        }
        return nil
    }

    /// Runs `body` with `certificate` (PEM) trusted system-wide, then removes it, rebuilds the store and deletes the
    /// links update-ca-certificates made for it (a rebuild removes a local certificate from the bundle but leaves its
    /// links). Hooks (Java's keystore) are not run, in either direction.
    /// - Returns: what `body` returned, and whether the bundle came back byte for byte and the directory of links
    ///   name for name (when the bundle did not, it is put back as it was).
    static func withInstalled<T>(_ certificate: String, _ body: () async throws -> T) async throws -> (T, restored: Bool) {
        let before = try Data(contentsOf: URL(fileURLWithPath: bundle))
        let linksBefore = names(in: links)
        let hooks = makeTemporaryDirectory(prefix: "taskls-no-hooks")
        defer { removeTree(hooks) }
        let name = "taskls-test-ca-\(getpid())"
        let installed = localDirectory + "/" + name + ".crt"
        try FileManager.default.copyItem(atPath: certificate, toPath: installed)
        func uninstall() throws {
            try FileManager.default.removeItem(atPath: installed)
            try update(hooks)
            for link in names(in: links) where link == name + ".pem" || readLink(links + "/" + link) == name + ".pem" {
                try FileManager.default.removeItem(atPath: links + "/" + link)
            }
        }
        let result: T
        do {
            try update(hooks)
            result = try await body()
        } catch {
            try? uninstall()
            throw error
        }
        try uninstall()
        let after = try Data(contentsOf: URL(fileURLWithPath: bundle))
        if after != before { try before.write(to: URL(fileURLWithPath: bundle), options: .atomic) }
        return (result, after == before && names(in: links) == linksBefore)
    }

    /// The target of the symbolic link at `path`, or nil when it is not one.
    private static func readLink(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    private static func update(_ hooks: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: updater ?? "update-ca-certificates")
        process.arguments = ["--hooksdir", hooks]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RadicaleFailure("update-ca-certificates exited with status \(process.terminationStatus): "
                                  + String(decoding: message, as: UTF8.self))
        }
    }
}
