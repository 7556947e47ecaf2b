// The DAV bodies and the multistatus reader against a real Radicale: discovery, MKCALENDAR, PUT with preconditions,
// sync-collection first and delta, calendar-multiget, calendar-query, a refused token. Marker `caldav`: `ran`, or
// `skipped (REASON)` when Radicale is not installed.

import Foundation
import Sync
import Testing

private let user = "alice"
private let password = "correct horse"

private func task(_ uid: String, _ title: String) -> String {
    ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//taskls//tests//EN", "BEGIN:VTODO", "UID:\(uid)",
     "DTSTAMP:20261126T100000Z", "SUMMARY:\(title)", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
}

@Test func aRealRadicaleTakesTheBodiesAndItsAnswersRead() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let server = try RadicaleServer(users: [user: password])
    defer { server.stop() }
    func request(_ method: String, _ path: String, depth: String? = nil, headers: [String: String] = [:],
                 body: String? = nil) async throws -> HTTPAnswer {
        var headers = headers
        if let depth { headers["Depth"] = depth }
        return try await send(method, server.base + path, user: user, password: password, headers: headers, body: body)
    }
    func multistatus(_ answer: HTTPAnswer) throws -> DAVMultistatus {
        #expect(answer.status == 207, "\(String(decoding: answer.body, as: UTF8.self))")
        return try DAVMultistatus(answer.body)
    }

    // Discovery: the principal, its calendar home.
    let wrong = try await send("PROPFIND", server.base + "/", user: user, password: "wrong", headers: ["Depth": "0"],
                               body: DAVRequestBody.propfind([DAVName.currentUserPrincipal]))
    #expect(wrong.status == 401)
    let root = try multistatus(try await request("PROPFIND", "/", depth: "0", body: DAVRequestBody.propfind([DAVName.currentUserPrincipal])))
    let principal = try #require(root.responses.first?.href(in: DAVName.currentUserPrincipal))
    #expect(principal == "/alice/")
    let homes = try multistatus(try await request("PROPFIND", principal, depth: "0", body: DAVRequestBody.propfind([DAVName.calendarHomeSet])))
    let home = try #require(homes.responses.first?.href(in: DAVName.calendarHomeSet))

    // A calendar for tasks, with a name that needs escaping and a colour.
    let name = "Errands & <chores> \"now\""
    let made = try await request("MKCALENDAR", home + "tasks/", body: DAVRequestBody.makeTaskCalendar(name: name, color: "#FF8800FF"))
    #expect(made.status == 201)
    let listing = try multistatus(try await request("PROPFIND", home, depth: "1", body: DAVRequestBody.propfind(
        [DAVName.resourceType, DAVName.displayName, DAVName.supportedComponents, DAVName.calendarColor, DAVName.syncToken])))
    let calendars = listing.responses.filter(\.isCalendar)
    #expect(calendars.map(\.href) == [home + "tasks/"])
    let calendar = try #require(calendars.first)
    #expect(calendar.displayName == name && calendar.components == ["VTODO"] && calendar.color == "#FF8800FF")
    #expect(calendar.syncToken != nil)
    // The home itself is no calendar, and said so for the properties it lacks.
    #expect(listing.responses.first { $0.href == home }?.missing[DAVName.displayName] == 404)

    // Two tasks, each created only if absent.
    let collection = home + "tasks/"
    var etags: [String: String] = [:]
    for (uid, title) in [("t1", "First, with a comma"), ("t2", "Second")] {
        let put = try await request("PUT", collection + uid + ".ics", headers: ["If-None-Match": "*", "Content-Type": "text/calendar"],
                                    body: task(uid, title))
        #expect(put.status == 201)
        let tag: String = try #require(put.header("ETag"))
        etags[uid] = tag
    }
    let again = try await request("PUT", collection + "t1.ics", headers: ["If-None-Match": "*", "Content-Type": "text/calendar"],
                                  body: task("t1", "Again"))
    #expect(again.status == 412)

    // The first sync: every member with its entity tag, and a token.
    let first = try multistatus(try await request("REPORT", collection, depth: "0", body: DAVRequestBody.syncCollection(token: nil)))
    #expect(Dictionary(uniqueKeysWithValues: first.responses.map { ($0.href, $0.etag ?? "") })
        == [collection + "t1.ics": etags["t1"]!, collection + "t2.ics": etags["t2"]!])
    let token = try #require(first.syncToken)

    // A deletion and a creation: the delta has the deleted member as 404 and the new one with its tag.
    #expect(try await request("DELETE", collection + "t1.ics", headers: ["If-Match": etags["t1"]!]).status == 200)
    #expect(try await request("PUT", collection + "t3.ics", headers: ["If-None-Match": "*", "Content-Type": "text/calendar"],
                              body: task("t3", "Third")).status == 201)
    let delta = try multistatus(try await request("REPORT", collection, depth: "0", body: DAVRequestBody.syncCollection(token: token)))
    #expect(delta.responses.first { $0.href == collection + "t1.ics" }?.status == 404)
    #expect(delta.responses.first { $0.href == collection + "t3.ics" }?.etag != nil)
    #expect(delta.responses.count == 2 && delta.syncToken != token)

    // An edit with a stale tag is refused.
    #expect(try await request("PUT", collection + "t2.ics", headers: ["If-Match": "\"stale\"", "Content-Type": "text/calendar"],
                              body: task("t2", "Edited")).status == 412)

    // The data of some members, one of them missing.
    let fetched = try multistatus(try await request("REPORT", collection, depth: "1", body: DAVRequestBody.calendarMultiget(
        [collection + "t2.ics", collection + "t3.ics", collection + "missing.ics"])))
    #expect(fetched.responses.first { $0.href == collection + "missing.ics" }?.status == 404)
    #expect(fetched.responses.first { $0.href == collection + "t2.ics" }?.calendarData?.contains("SUMMARY:Second") == true)
    #expect(fetched.responses.first { $0.href == collection + "t3.ics" }?.calendarData?.contains("UID:t3") == true)

    // The listing sync falls back to: every task's tag.
    let query = try multistatus(try await request("REPORT", collection, depth: "1", body: DAVRequestBody.taskETagQuery()))
    #expect(Set(query.responses.map(\.href)) == [collection + "t2.ics", collection + "t3.ics"])
    #expect(query.responses.allSatisfy { $0.etag != nil })

    // A token the server does not know: refused with DAV:valid-sync-token, which is not a multistatus.
    let refused = try await request("REPORT", collection, depth: "0", body: DAVRequestBody.syncCollection(token: "http://radicale.org/ns/sync/unknown"))
    #expect(refused.status == 403)
    let error = try XMLReader.read(Array(refused.body))
    #expect(error.name == DAVName.error && error.child(DAVName.validSyncToken) != nil)
    #expect(throws: DAVProblem.self) { try DAVMultistatus(refused.body) }
}
