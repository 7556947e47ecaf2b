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

/// `initialize`'s LSP members are read as protocol.md says: `trace` absent or `null` is "off", and a
/// `workDoneProgress` that is not a boolean counts as false; neither is a reason to refuse the client.
@Test(arguments: [["processId": nil, "trace": nil], ["processId": nil, "capabilities": ["window": ["workDoneProgress": "yes"]]],
                  ["processId": nil, "capabilities": ["window": nil]], ["processId": nil, "capabilities": 3]] as [JSON])
func initializeToleratesLSPMembersOfAnyShape(_ params: JSON) throws {
    let client = try TestClient(initialize: false)
    let answer = try client.request("initialize", params)
    #expect((try? answer.get()) != nil, "\(answer)")
}

/// `shutdown`'s params are ignored whatever their shape, LSP's generic members included.
@Test(arguments: [["workDoneToken": nil], ["workDoneToken": ["x": 1]], ["partialResultToken": true]] as [JSON])
func shutdownIgnoresItsParamsGenericMembersIncluded(_ params: JSON) throws {
    let client = try TestClient()
    let answer = try client.request("shutdown", params)
    #expect(answer == .success(.null), "\(answer)")
}
