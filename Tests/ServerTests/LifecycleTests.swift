/// The LSP lifecycle through the typed in-process client.

import Testing
import Wire

@Test func initializeAdvertisesTheProtocol() throws {
    let client = try TestClient(initialize: false)
    let result = try client.request("initialize", ["capabilities": [:]]).get()
    #expect(result["serverInfo"]?["name"] == "taskls")
    #expect(result["capabilities"]?["taskls"]?["protocolVersion"] == 1)
    guard case .array(let requests)? = result["capabilities"]?["taskls"]?["requests"] else {
        Issue.record("no request list")
        return
    }
    #expect(requests.contains("server/ping"))
}

@Test func requestsBeforeInitializeAreRefused() throws {
    let client = try TestClient(initialize: false)
    #expect(try client.request("server/ping").errorCode == .serverNotInitialized)
    #expect(try client.request("initialize").map { _ in true } == .success(true))
    #expect(try client.request("server/ping") == .success([:]))
}

@Test func shutdownRefusesLaterRequests() throws {
    let client = try TestClient()
    #expect(try client.request("shutdown") == .success(nil))
    #expect(try client.request("server/ping").errorCode == .invalidRequest)
}

@Test func unknownMethodsAreNamed() throws {
    let client = try TestClient()
    let failure = try client.request("lists/frobnicate")
    #expect(failure == .failure(ResponseError(.methodNotFound, "unknown method 'lists/frobnicate'")))
}

@Test func cancelledRequestsInTheSameBatchAreAnsweredWithRequestCancelled() throws {
    let client = try TestClient()
    client.send(
        .request(id: .integer(100), method: "server/ping", params: nil),
        .notification(method: "$/cancelRequest", params: ["id": 100]))
    #expect(try client.receive() == .error(id: .integer(100), ResponseError(.requestCancelled, "server/ping: cancelled by the client")))
    #expect(try client.request("server/ping") == .success([:]))
}
