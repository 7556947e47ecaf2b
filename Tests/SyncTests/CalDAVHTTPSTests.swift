// The CalDAV client over HTTPS against a real Radicale with certificates from a test CA made by openssl: refused,
// naming the host, while the CA is unknown; then, as root, the CA installed in the system store (the only one
// URLSession reads on Linux) and discovery, MKCALENDAR, PUT and sync-collection over HTTPS, while a certificate for
// another host name or an expired one is still refused. A server that speaks no TLS is unreachable. Marker `caldav-https`: `ran`, or `skipped (REASON)`.

import CalDAV
import Foundation
import Sync
import Testing

private func vtodo(_ uid: String, _ title: String) -> String {
    ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//taskls//tests//EN", "BEGIN:VTODO", "UID:\(uid)",
     "DTSTAMP:20261126T100000Z", "SUMMARY:\(title)", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
}

private func say(_ line: String) {
    FileHandle.standardError.write(Data("caldav-https: \(line)\n".utf8))
}

/// The failure `client`'s first request meets, which must be an untrusted certificate of 127.0.0.1.
private func refusal(_ client: CalDAVClient) async -> (reason: String, message: String)? {
    do {
        _ = try await client.discoverPrincipal()
        Issue.record("\(client.account.url) was trusted")
    } catch {
        guard case .untrustedCertificate(let host, let reason) = error else {
            Issue.record("not a certificate failure: \(error)")
            return nil
        }
        #expect(host == "127.0.0.1")
        return (reason, error.description)
    }
    return nil
}

@Test func httpsIsVerifiedAgainstTheSystemStoreOnly() async throws {
    guard RadicaleServer.program != nil else { return say("skipped (radicale is not installed)") }
    guard TestCertificateAuthority.program != nil else { return say("skipped (openssl is not installed)") }
    let authority = try TestCertificateAuthority(servers: [
        .init(name: "local", alternativeNames: "IP:127.0.0.1,DNS:localhost"),
        .init(name: "elsewhere", alternativeNames: "DNS:elsewhere.invalid"),
        .init(name: "expired", alternativeNames: "IP:127.0.0.1,DNS:localhost", expired: true),
    ])
    defer { authority.remove() }
    let server = try RadicaleServer(users: ["bob": "s3cret"], tls: authority.files(of: "local"))
    defer { server.stop() }
    func account(_ base: String) throws -> CalDAVAccount {
        CalDAVAccount(url: try #require(URL(string: base + "/")), user: "bob", password: "s3cret")
    }

    // The CA is nobody's: refused, the host named, the remedy said; no fallback to /.well-known hides it.
    let unknown = await refusal(CalDAVClient(account: try account(server.base)))
    #expect(unknown?.reason == "unable to get local issuer certificate")
    #expect(unknown?.message.hasPrefix("127.0.0.1's certificate is not trusted (unable to get local issuer certificate)") == true)
    #expect(unknown?.message.contains("update-ca-certificates") == true)

    // A server that speaks no TLS at all is unreachable, not a certificate problem.
    let plain = try RadicaleServer(users: ["bob": "s3cret"])
    defer { plain.stop() }
    let mistaken = CalDAVClient(account: try account("https://127.0.0.1:\(plain.port)"))
    do {
        _ = try await mistaken.principal()
        Issue.record("a plain HTTP server answered over HTTPS")
    } catch {
        guard case .unreachable(let host, _) = error else { Issue.record("\(error)"); return }
        #expect(host == "127.0.0.1")
    }

    if let reason = SystemTrustStore.unavailability { return say("skipped (\(reason); the unknown CA was refused)") }
    say("ran")
    let elsewhere = try RadicaleServer(users: ["bob": "s3cret"], tls: authority.files(of: "elsewhere"))
    defer { elsewhere.stop() }
    let expired = try RadicaleServer(users: ["bob": "s3cret"], tls: authority.files(of: "expired"))
    defer { expired.stop() }
    let (_, restored) = try await SystemTrustStore.withInstalled(authority.certificate) {
        let client = CalDAVClient(account: try account(server.base))
        let principal = try await client.discoverPrincipal()
        let home = try await client.calendarHome(of: principal)
        #expect(principal == "/bob/" && home == "/bob/")
        try await client.makeTaskCalendar(at: home + "secure/", name: "Secure", color: nil)
        let calendars = try await client.calendars(in: home)
        #expect(calendars.map(\.href) == ["/bob/secure/"])
        let calendar = "/bob/secure/"
        let first = try await client.put(calendar + "a.ics", vtodo("a", "A"), replacing: nil)
        let all = try await client.changes(in: calendar, since: nil)
        #expect(all.listing == .delta([calendar + "a.ics": first]) && first != nil)
        let second = try await client.put(calendar + "b.ics", vtodo("b", "B"), replacing: nil)
        let delta = try await client.changes(in: calendar, since: all.token)
        #expect(delta.listing == .delta([calendar + "b.ics": second]))
        #expect(try await client.fetch([calendar + "b.ics"], in: calendar)[calendar + "b.ics"]?.text.contains("SUMMARY:B") == true)

        // The certificate names localhost too.
        let named = CalDAVClient(account: try account("https://localhost:\(server.port)"))
        #expect(try await named.principal() == "/bob/")

        // Trusted CA, but the certificate is another host's, or past its dates: still refused.
        #expect(await refusal(CalDAVClient(account: try account(elsewhere.base)))?.reason == "it is for another host name")
        #expect(await refusal(CalDAVClient(account: try account(expired.base)))?.reason == "certificate has expired")
    }
    #expect(restored, "the system store did not come back as it was")
    // Removed: an unknown CA again (a new client: each session caches the store it read).
    #expect(await refusal(CalDAVClient(account: try account(server.base)))?.reason == "unable to get local issuer certificate")
}
