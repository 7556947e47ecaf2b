/// Where the store lives: `--store`, then `TASKLS_STORE`, then the client's choice, then the XDG default.

import Server
import Testing

@Suite struct StoreLocationTests {
    private func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    @Test func theFlagComesFirst() {
        let setting = StoreLocation.resolve(flag: "/flag", environment: environment(["TASKLS_STORE": "/env", "HOME": "/home/ann"]))
        #expect(setting == .directory("/flag"))
    }

    @Test func thenTheEnvironmentVariable() {
        let setting = StoreLocation.resolve(flag: nil, environment: environment(["TASKLS_STORE": "/env", "HOME": "/home/ann"]))
        #expect(setting == .directory("/env"))
    }

    @Test func thenTheClientsChoiceWithTheXDGDefault() {
        #expect(StoreLocation.resolve(flag: nil, environment: environment(["XDG_DATA_HOME": "/data", "HOME": "/home/ann"]))
            == .clientChoice(fallback: "/data/taskls"))
        #expect(StoreLocation.resolve(flag: nil, environment: environment(["TASKLS_STORE": "", "HOME": "/home/ann"]))
            == .clientChoice(fallback: "/home/ann/.local/share/taskls"))
        // A relative XDG_DATA_HOME is invalid by the XDG spec and ignored.
        #expect(StoreLocation.resolve(flag: nil, environment: environment(["XDG_DATA_HOME": "data", "HOME": "/home/ann"]))
            == .clientChoice(fallback: "/home/ann/.local/share/taskls"))
    }
}

import TasklsProtocol
import TestSupport
import Wire

@Suite struct ClientStoreChoiceTests {
    private func temporaryDirectory() -> String { makeTemporaryDirectory(prefix: "taskls-store-choice") }

    @Test func initializationOptionsStoreIsUsedWhenNeitherFlagNorEnvironmentChose() throws {
        let fallback = temporaryDirectory(), chosen = temporaryDirectory()
        let client = try TestClient(initialize: false, options: ServerOptions(logger: .silent, store: .clientChoice(fallback: fallback)))
        try client.send(Initialize(store: chosen + "/tasks"))
        let status = try client.send(StoreStatus())
        #expect(status.path == chosen + "/tasks")
        guard case .ready = status.state else {
            Issue.record("the store is \(status.json.text)")
            return
        }
    }

    @Test func aDirectoryChosenOnTheCommandLineWins() throws {
        let flag = temporaryDirectory(), chosen = temporaryDirectory()
        let client = try TestClient(initialize: false, options: ServerOptions(logger: .silent, store: .directory(flag)))
        try client.send(Initialize(store: chosen))
        #expect(try client.send(StoreStatus()).path == flag)
    }

    @Test func anEmptyStoreOptionIsRefusedByName() throws {
        let client = try TestClient(initialize: false, options: ServerOptions(logger: .silent, store: .clientChoice(fallback: "/tmp")))
        let answer = try client.call(Initialize(store: ""))
        guard case .failure(let error) = answer else {
            Issue.record("an empty store path was accepted")
            return
        }
        #expect(error.code == .invalidParams)
        #expect(error.message.hasPrefix("params.initializationOptions.store:"))
    }
}
