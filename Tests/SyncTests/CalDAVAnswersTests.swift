// The CalDAV client on answers real servers give and Radicale does not: redirects on and off the account's origin,
// absolute hrefs, a truncated report, missing and weak entity tags, SabreDAV's error bodies.

import CalDAV
import Foundation
import Sync
import Testing

private func client(_ server: CannedHTTPServer) throws -> CalDAVClient {
    CalDAVClient(account: CalDAVAccount(url: try #require(URL(string: server.base + "/dav/")), user: "ann", password: "pw"))
}

private let principalAnswer = """
    <d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:current-user-principal>\
    <d:href>/principals/ann/</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>\
    </d:response></d:multistatus>
    """

@Test func redirectsAreFollowedWithTheirBodyOnTheAccountsOriginOnly() async throws {
    let server = try CannedHTTPServer { request in
        switch request.path {
        case "/dav/": CannedAnswer(status: 308, headers: ["Location": "/moved/"])
        // The body came along: a PROPFIND without it would ask for every property.
        case "/moved/" where request.method == "PROPFIND" && request.body.contains("current-user-principal"):
            CannedAnswer(status: 207, body: principalAnswer)
        case "/away/": CannedAnswer(status: 301, headers: ["Location": "http://example.com/dav/"])
        default: CannedAnswer(status: 400)
        }
    }
    defer { server.stop() }
    #expect(try await client(server).principal() == "/principals/ann/")
    await #expect(throws: CalDAVFailure.redirectedElsewhere(href: "/away/", to: "http://example.com/dav/")) {
        _ = try await client(server).principal(at: "/away/")
    }
}

@Test func absoluteHrefsATruncatedReportAndMissingOrWeakTagsRead() async throws {
    let server = try CannedHTTPServer { request in
        switch (request.method, request.path) {
        case ("REPORT", "/dav/cal/"):
            CannedAnswer(status: 207, body: """
                <d:multistatus xmlns:d="DAV:"><d:response><d:href>http://127.0.0.1:1/x</d:href>\
                <d:status>HTTP/1.1 404 Not Found</d:status></d:response>\
                <d:response><d:href>/dav/cal/a%40b.ics</d:href><d:propstat><d:prop><d:getetag>W/"weak"</d:getetag></d:prop>\
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\
                <d:response><d:href>/dav/cal/c.ics</d:href><d:propstat><d:prop><d:getetag>"c1"</d:getetag></d:prop>\
                <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\
                <d:response><d:href>/dav/cal/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>\
                <d:sync-token>t2</d:sync-token></d:multistatus>
                """)
        case ("PUT", _): CannedAnswer(status: 201, headers: ["ETag": "W/\"weak\""])
        default: CannedAnswer(status: 400)
        }
    }
    defer { server.stop() }
    let changes = try await client(server).changes(in: "/dav/cal/", since: "t1")
    #expect(changes.truncated && changes.token == "t2")
    // A member on another origin keeps its absolute href; the weak tag is no tag; the collection is no member.
    #expect(changes.listing == .delta(["http://127.0.0.1:1/x": nil, "/dav/cal/a@b.ics": "", "/dav/cal/c.ics": "\"c1\""]))
    #expect(try await client(server).put("/dav/cal/n.ics", "BEGIN:VCALENDAR", replacing: nil) == nil)
}

@Test func sabreDAVsErrorBodiesAreNamed() async throws {
    let sabre = #"<d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:exception>Sabre\DAV\Exception\BadRequest</s:exception>"#
    let server = try CannedHTTPServer { request in
        switch request.path {
        case "/dav/cal/dup.ics":
            CannedAnswer(status: 400, body: sabre + "<s:message>Calendar object with uid already exists in this calendar collection.</s:message></d:error>")
        case "/dav/cal/broken.ics":
            CannedAnswer(status: 500, body: sabre + "<s:message>Database is locked</s:message></d:error>")
        default:
            CannedAnswer(status: 503, headers: ["Content-Type": "text/plain"], body: "  Down for maintenance until 10:00  ")
        }
    }
    defer { server.stop() }
    let caldav = try client(server)
    await #expect(throws: CalDAVFailure.uidTaken(href: "/dav/cal/dup.ics", existing: nil)) {
        _ = try await caldav.put("/dav/cal/dup.ics", "BEGIN:VCALENDAR", replacing: nil)
    }
    await #expect(throws: CalDAVFailure.status(500, href: "/dav/cal/broken.ics", message: "Database is locked")) {
        _ = try await caldav.put("/dav/cal/broken.ics", "BEGIN:VCALENDAR", replacing: nil)
    }
    await #expect(throws: CalDAVFailure.status(503, href: "/dav/cal/x.ics", message: "Down for maintenance until 10:00")) {
        try await caldav.delete("/dav/cal/x.ics", etag: "\"1\"")
    }
    #expect(CalDAVFailure.status(503, href: "/dav/cal/x.ics", message: "Down for maintenance until 10:00").description
        == "/dav/cal/x.ics: the server answered 503: Down for maintenance until 10:00")
}
