// The CalDAV client against a real Radicale: discovery, a calendar made and found, members put, listed, fetched,
// replaced and deleted, and each failure sync acts on named. Marker `caldav`, as the other Radicale test.

import CalDAV
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Sync
import Testing

private func vtodo(_ uid: String, _ title: String) -> String {
    ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//taskls//tests//EN", "BEGIN:VTODO", "UID:\(uid)",
     "DTSTAMP:20261126T100000Z", "SUMMARY:\(title)", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
}

@Test func theClientSyncsACalendarOfARealRadicale() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let server = try RadicaleServer(users: ["bob": "s3cret"])
    defer { server.stop() }
    let client = CalDAVClient(account: CalDAVAccount(url: try #require(URL(string: server.base + "/")), user: "bob", password: "s3cret"))

    // Found from a URL that names no principal, through /.well-known/caldav (Radicale redirects it to /).
    let lost = CalDAVClient(account: CalDAVAccount(url: try #require(URL(string: server.base + "/no/such/")), user: "bob", password: "s3cret"))
    #expect(try await lost.discoverPrincipal() == "/bob/")
    let principal = try await client.principal()
    let home = try await client.calendarHome(of: principal)
    #expect(principal == "/bob/" && home == "/bob/")
    try await client.makeTaskCalendar(at: home + "errands/", name: "Errands", color: "#00AA00FF")
    let calendars = try await client.calendars(in: home)
    #expect(calendars.map(\.href) == ["/bob/errands/"] && calendars[0].takesTasks && calendars[0].name == "Errands")
    let calendar = calendars[0].href

    // Members put, listed from scratch, fetched.
    let first = try await client.put(calendar + "a.ics", vtodo("a", "A"), replacing: nil)
    #expect(first != nil)
    _ = try await client.put(calendar + "b.ics", vtodo("b", "B"), replacing: nil)
    let all = try await client.changes(in: calendar, since: nil)
    guard case .delta(let listed) = all.listing else { Issue.record("not a delta"); return }
    #expect(Set(listed.keys) == [calendar + "a.ics", calendar + "b.ics"] && !all.truncated)
    #expect(listed[calendar + "a.ics"] == .some(first))
    let fetched = try await client.fetch([calendar + "a.ics", calendar + "b.ics", calendar + "gone.ics"], in: calendar)
    #expect(fetched[calendar + "b.ics"]?.text.contains("SUMMARY:B") == true && fetched.count == 2)
    #expect(try await client.entityTags(in: calendar).count == 2)

    // A replacement with the right tag, one with a stale tag, a creation over a member, a deletion; then the delta.
    let second = try await client.put(calendar + "a.ics", vtodo("a", "A again"), replacing: first)
    await #expect(throws: CalDAVFailure.preconditionFailed(href: calendar + "a.ics")) {
        _ = try await client.put(calendar + "a.ics", vtodo("a", "A stale"), replacing: first)
    }
    await #expect(throws: CalDAVFailure.preconditionFailed(href: calendar + "b.ics")) {
        _ = try await client.put(calendar + "b.ics", vtodo("b", "B twice"), replacing: nil)
    }
    let bTag = try #require(fetched[calendar + "b.ics"]?.etag)
    try await client.delete(calendar + "b.ics", etag: bTag)
    let delta = try await client.changes(in: calendar, since: all.token)
    #expect(delta.listing == .delta([calendar + "a.ics": second, calendar + "b.ics": nil]))

    // One member under either spelling of its href.
    _ = try await client.put(calendar + "x%40y.ics", vtodo("x@y", "At"), replacing: nil)
    let spelled = try await client.changes(in: calendar, since: delta.token)
    guard case .delta(let spelledChanges) = spelled.listing else { Issue.record("not a delta"); return }
    #expect(Array(spelledChanges.keys) == [client.canonical(calendar + "x@y.ics")])
    #expect(client.canonical(calendar + "x%40y.ics") == client.canonical(server.base + calendar + "x@y.ics"))

    // The same uid at a second href; a token the server does not know; a wrong password; nothing listening.
    await #expect(throws: CalDAVFailure.uidTaken(href: calendar + "a2.ics", existing: nil)) {
        _ = try await client.put(calendar + "a2.ics", vtodo("a", "A elsewhere"), replacing: nil)
    }
    await #expect(throws: CalDAVFailure.tokenRefused) {
        _ = try await client.changes(in: calendar, since: "http://radicale.org/ns/sync/0000")
    }
    let stranger = CalDAVClient(account: CalDAVAccount(url: try #require(URL(string: server.base + "/")), user: "bob", password: "wrong"))
    await #expect(throws: CalDAVFailure.credentialsRefused(host: "127.0.0.1")) { _ = try await stranger.principal() }
    await #expect(throws: CalDAVFailure.notFound(href: "/bob/nothing/")) { _ = try await client.entityTags(in: "/bob/nothing/") }
    await #expect(throws: CalDAVFailure.redirectedElsewhere(href: "http://example.com/x", to: "http://example.com/x")) {
        _ = try await client.entityTags(in: "http://example.com/x")
    }
    server.stop()
    do {
        _ = try await client.principal()
        Issue.record("a stopped server answered")
    } catch {
        guard case .unreachable(let host, _) = error else { Issue.record("\(error)"); return }
        #expect(host == "127.0.0.1")
    }
}

@Test func aServerThatNeverAnswersIsUnreachableWithinTheTimeout() async throws {
    let listener = try silentListener()
    defer { close(listener.descriptor) }
    let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)/"))
    let client = CalDAVClient(account: CalDAVAccount(url: url, user: "bob", password: "s3cret"), timeout: 1)
    await #expect(throws: CalDAVFailure.unreachable(host: "127.0.0.1", message: "no answer within 1 s")) {
        _ = try await client.principal()
    }
}
