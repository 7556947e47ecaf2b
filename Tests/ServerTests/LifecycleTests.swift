/// The LSP lifecycle through the typed in-process client.

import TasklsProtocol
import Testing
import Wire

@Test func initializeAdvertisesTheProtocol() throws {
    let client = try TestClient(initialize: false)
    let result = try client.send(Initialize())
    #expect(result.serverInfo.name == "taskls")
    #expect(result.capabilities.taskls.protocolVersion == 1)
    #expect(result.capabilities.taskls.requests.contains("server/ping"))
}

@Test func requestsBeforeInitializeAreRefused() throws {
    let client = try TestClient(initialize: false)
    #expect(try client.call(ServerPing()).errorCode == .serverNotInitialized)
    #expect(try client.call(Initialize()).errorCode == nil)
    #expect(try client.call(ServerPing()) == .success(EmptyResult()))
}

@Test func shutdownRefusesLaterRequests() throws {
    let client = try TestClient()
    #expect(try client.call(Shutdown()) == .success(NullResult()))
    #expect(try client.call(ServerPing()).errorCode == .invalidRequest)
}

@Test func unknownMethodsAreNamed() throws {
    let client = try TestClient()
    // No protocol type names an unknown method: the raw request.
    let failure = try client.request("lists/frobnicate")
    #expect(failure == .failure(ResponseError(.methodNotFound, "unknown method 'lists/frobnicate'")))
}

@Test func cancelledRequestsInTheSameBatchAreAnsweredWithRequestCancelled() throws {
    let client = try TestClient()
    client.sendBatch(ServerPing().message(id: .integer(100)), CancelRequest(id: .integer(100)).message)
    #expect(try client.receive() == .error(id: .integer(100), ResponseError(.requestCancelled, "server/ping: cancelled by the client")))
    #expect(try client.call(ServerPing()) == .success(EmptyResult()))
}
