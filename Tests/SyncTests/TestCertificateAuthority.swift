// A certificate authority made with `openssl` for one test, and the server certificates it signs: for 127.0.0.1 and
// localhost, for another host name, or expired. Its private key is deleted as soon as they are signed, so a copy of
// its certificate left installed somewhere can vouch for nothing else.

import Foundation
import TestSupport

/// One test CA in a temporary directory, removed by `remove()`.
final class TestCertificateAuthority {
    /// The `openssl` program, or nil when it is not installed.
    static let program: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return (directories.map { $0 + "/openssl" } + ["/usr/bin/openssl"]).first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// A server certificate to sign.
    struct Server {
        /// The stem of its files (`NAME.crt`, `NAME.key`).
        var name: String
        /// What it is for, as `subjectAltName` says it (`IP:127.0.0.1,DNS:localhost`).
        var alternativeNames: String
        /// Whether its dates ended yesterday.
        var expired = false
    }

    let directory: String
    /// The CA's certificate (PEM).
    var certificate: String { directory + "/ca.crt" }

    /// Makes the CA and signs `servers`; throws with openssl's message when a step fails.
    init(servers: [Server]) throws {
        directory = makeTemporaryDirectory(prefix: "taskls-test-ca")
        let key = directory + "/ca.key"
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                 "-out", certificate, "-days", "2", "-subj", "/CN=taskls test CA \(UUID().uuidString)",
                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        for (serial, server) in servers.enumerated() {
            let stem = directory + "/" + server.name
            try "subjectAltName=\(server.alternativeNames)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
                .write(toFile: stem + ".ext", atomically: true, encoding: .utf8)
            try run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", stem + ".key",
                     "-out", stem + ".csr", "-subj", "/CN=\(server.name)"])
            // OpenSSL 3.0's `x509 -days -1` ends the dates a day before they begin: expired since yesterday.
            try run(["x509", "-req", "-in", stem + ".csr", "-CA", certificate, "-CAkey", key, "-set_serial", "\(serial + 2)",
                     "-days", server.expired ? "-1" : "2", "-extfile", stem + ".ext", "-out", stem + ".crt"])
        }
        try FileManager.default.removeItem(atPath: key)
    }

    /// The certificate and key files of the server `name`, as `RadicaleServer` takes them.
    func files(of name: String) -> (certificate: String, key: String) {
        (directory + "/" + name + ".crt", directory + "/" + name + ".key")
    }

    func remove() {
        removeTree(directory)
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.program ?? "openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RadicaleFailure("openssl \(arguments[0]) exited with status \(process.terminationStatus): "
                                  + String(decoding: message, as: UTF8.self))
        }
    }
}
