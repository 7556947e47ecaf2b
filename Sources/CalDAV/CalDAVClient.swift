// CalDAVClient: the requests sync makes of a CalDAV server, over URLSession, with their answers read and their
// failures named.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Domain
import Sync

/// Where and as whom to reach a CalDAV server.
public struct CalDAVAccount: Sendable {
    /// The server's URL as the user gave it (`https://dav.example.com/`, or a principal or calendar URL).
    public var url: URL
    public var user: String
    /// The password, read at sync time (from a command or a file); never stored with the account.
    public var password: String

    public init(url: URL, user: String, password: String) {
        self.url = url
        self.user = user
        self.password = password
    }
}

/// A calendar collection the server offers.
public struct CalDAVCalendar: Hashable, Sendable {
    public var href: String
    public var name: String?
    public var color: String?
    /// The components it takes (`VTODO`, `VEVENT`); nil when the server does not say (then it takes all).
    public var components: [String]?
    public var syncToken: String?

    /// Whether it can hold tasks.
    public var takesTasks: Bool { components?.contains("VTODO") ?? true }
}

/// Why a request failed, in terms sync acts on.
public enum CalDAVFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server refused the user and password (401).
    case credentialsRefused(host: String)
    /// The server does not know the sync token (403 or 409 with `DAV:valid-sync-token`, RFC 6578 §3.2): list again
    /// from scratch.
    case tokenRefused
    /// A precondition failed (412): the member changed (`If-Match`) or exists (`If-None-Match: *`).
    case preconditionFailed(href: String)
    /// The member's uid is already used by another member (409, RFC 4791 `no-uid-conflict`), at `existing` if the
    /// server said where.
    case uidTaken(href: String, existing: String?)
    /// Nothing is at `href` (404).
    case notFound(href: String)
    /// Any other status, with what the server said of it (its error message, or the start of its text), if anything.
    case status(Int, href: String, message: String?)
    /// The server sent the request to another origin (scheme, host or port), where the password is not sent.
    case redirectedElsewhere(href: String, to: String)
    /// No answer: the connection failed or timed out (`message` says which).
    case unreachable(host: String, message: String)
    /// The server's certificate failed verification (`reason`: an unknown authority, another host's name, expired).
    /// Verification is never turned off: the remedy is the authority in the system's certificate store.
    case untrustedCertificate(host: String, reason: String)
    /// An answer that could not be read.
    case badAnswer(href: String, message: String)

    public var description: String {
        switch self {
        case .credentialsRefused(let host): "\(host) refused the user name and password (a server with two-factor sign-in wants an app password)"
        case .tokenRefused: "the server no longer knows the sync token"
        case .preconditionFailed(let href): "\(href) changed on the server meanwhile"
        case .uidTaken(let href, let existing): "\(href): its uid is already on the server" + (existing.map { " at \($0)" } ?? "")
        case .notFound(let href): "\(href) is not on the server"
        case .status(let code, let href, let message): "\(href): the server answered \(code)" + (message.map { ": \($0)" } ?? "")
        case .redirectedElsewhere(let href, let target): "\(href) is redirected to \(target), another server: give that URL instead"
        case .unreachable(let host, let message): "\(host) cannot be reached: \(message)"
        case .untrustedCertificate(let host, let reason):
            "\(host)'s certificate is not trusted (\(reason)); taskls trusts the system's certificate store only: for a server "
                + "with its own certificate authority, install that authority's certificate there (Debian, Ubuntu: copy it "
                + "to /usr/local/share/ca-certificates/NAME.crt, then run update-ca-certificates as root)"
        case .badAnswer(let href, let message): "\(href): the server's answer cannot be read: \(message)"
        }
    }
}

/// What a sync-collection report gave: the changes, the new token, and whether the server left some out.
public struct CalDAVChanges: Sendable {
    public var listing: RemoteListing
    public var token: String
    public var truncated: Bool
}

/// The requests of sync, one method each, over one URLSession (its connections reused). Hrefs in and out are
/// canonical (`canonical(_:)`): paths on the account's origin, percent-encoded one way.
public final class CalDAVClient: Sendable {
    public let account: CalDAVAccount
    /// Seconds a request may wait for the server before it counts as unreachable.
    public let timeout: TimeInterval
    private let session: URLSession
    private let delegate: SessionDelegate

    public init(account: CalDAVAccount, timeout: TimeInterval = 60) {
        self.account = account
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        delegate = SessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The user's principal, from the account's URL, or from the server's `/.well-known/caldav` (RFC 6764) when the
    /// URL names no principal.
    public func discoverPrincipal() async throws(CalDAVFailure) -> String {
        do {
            return try await principal()
        } catch {
            switch error {
            case .credentialsRefused, .unreachable, .untrustedCertificate, .redirectedElsewhere: throw error
            default: return try await principal(at: "/.well-known/caldav")
            }
        }
    }

    /// `href` as the client keeps it: on the account's origin, the path with its percent-encoding normalized (so
    /// `a%40b.ics` and `a@b.ics` are one member); an href on another origin stays absolute.
    public func canonical(_ href: String) -> String {
        guard let url = URL(string: href, relativeTo: account.url)?.absoluteURL else { return href }
        guard sameOrigin(url, account.url) else { return url.absoluteString }
        let path = url.path(percentEncoded: false)
        return path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    /// The user's principal (RFC 5397 `current-user-principal`) as the resource at `href` (default: the account's
    /// URL) names it.
    public func principal(at href: String? = nil) async throws(CalDAVFailure) -> String {
        let target = href ?? account.url.absoluteString
        let answer = try await propfind(target, depth: "0", [DAVName.currentUserPrincipal])
        guard let principal = answer.responses.lazy.compactMap({ $0.href(in: DAVName.currentUserPrincipal) }).first else {
            throw .badAnswer(href: canonical(target), message: "no current-user-principal")
        }
        return canonical(principal)
    }

    /// The principal's calendar home (RFC 4791 `calendar-home-set`).
    public func calendarHome(of principal: String) async throws(CalDAVFailure) -> String {
        let answer = try await propfind(principal, depth: "0", [DAVName.calendarHomeSet])
        guard let href = answer.responses.lazy.compactMap({ $0.href(in: DAVName.calendarHomeSet) }).first else {
            throw .badAnswer(href: principal, message: "no calendar-home-set")
        }
        return canonical(href)
    }

    /// The calendars in `home`.
    public func calendars(in home: String) async throws(CalDAVFailure) -> [CalDAVCalendar] {
        let answer = try await propfind(home, depth: "1", [DAVName.resourceType, DAVName.displayName, DAVName.supportedComponents,
                                                           DAVName.calendarColor, DAVName.syncToken])
        return answer.responses.filter(\.isCalendar).map {
            CalDAVCalendar(href: canonical($0.href), name: $0.displayName, color: $0.color, components: $0.components, syncToken: $0.syncToken)
        }
    }

    /// Makes a calendar for tasks at `href` (MKCALENDAR).
    public func makeTaskCalendar(at href: String, name: String, color: String?) async throws(CalDAVFailure) {
        let answer = try await send("MKCALENDAR", href, body: DAVRequestBody.makeTaskCalendar(name: name, color: color))
        guard answer.status == 201 else {
            if answer.status == 405 { throw .status(405, href: canonical(href), message: "something already exists there") }
            throw failure(answer, href)
        }
    }

    /// Gives a calendar the name `name` (nil: leaves it) and the colour `color` (`#RRGGBBAA`; `.clear` removes it; nil
    /// leaves it), by PROPPATCH. Throws when the server refuses any of them (it then changes none: RFC 4918 §9.2).
    public func setProperties(of calendar: String, name: String?, color: Clearable<String>?) async throws(CalDAVFailure) {
        var set: [(name: XMLName, text: String)] = []
        var remove: [XMLName] = []
        if let name { set.append((DAVName.displayName, name)) }
        switch color {
        case .set(let value)?: set.append((DAVName.calendarColor, value))
        case .clear?: remove.append(DAVName.calendarColor)
        case nil: break
        }
        guard !set.isEmpty || !remove.isEmpty else { return }
        let answer = try await send("PROPPATCH", calendar, body: DAVRequestBody.propertyUpdate(set: set, remove: remove))
        let result = try multistatus(answer, calendar)
        if let refused = result.responses.first(where: { !$0.missing.isEmpty || ($0.status.map { !(200..<300).contains($0) } ?? false) }) {
            let code = refused.missing.values.first ?? refused.status ?? 0
            throw .status(code, href: canonical(calendar), message: "the calendar's name or colour was refused")
        }
    }

    /// The members changed since `token` (nil: all of them), by sync-collection. A changed member the server gives
    /// no entity tag for is listed with the tag "" (fetched, and its tag read then).
    /// - Throws: `.tokenRefused` when the server no longer knows the token.
    public func changes(in calendar: String, since token: String?) async throws(CalDAVFailure) -> CalDAVChanges {
        let answer = try await send("REPORT", calendar, headers: ["Depth": "0"], body: DAVRequestBody.syncCollection(token: token))
        let read = try multistatus(answer, calendar)
        guard let newToken = read.syncToken else { throw .badAnswer(href: calendar, message: "no sync-token") }
        var changes: [String: String?] = [:]
        let collection = canonical(calendar)
        for response in read.responses {
            let href = canonical(response.href)
            guard href != collection, href + "/" != collection else { continue }
            changes[href] = response.status == 404 ? .some(nil) : .some(strong(response.etag) ?? "")
        }
        return CalDAVChanges(listing: .delta(changes), token: newToken, truncated: read.truncated)
    }

    /// Every task member with its entity tag, by calendar-query: the listing when a sync token is refused.
    public func entityTags(in calendar: String) async throws(CalDAVFailure) -> [String: String] {
        let answer = try await send("REPORT", calendar, headers: ["Depth": "1"], body: DAVRequestBody.taskETagQuery())
        var tags: [String: String] = [:]
        for response in try multistatus(answer, calendar).responses {
            if let etag = strong(response.etag) { tags[canonical(response.href)] = etag }
        }
        return tags
    }

    /// The iCalendar text of `hrefs` (calendar-multiget); a member the server no longer has is left out.
    public func fetch(_ hrefs: [String], in calendar: String) async throws(CalDAVFailure) -> [String: (etag: String?, text: String)] {
        guard !hrefs.isEmpty else { return [:] }
        let answer = try await send("REPORT", calendar, headers: ["Depth": "1"], body: DAVRequestBody.calendarMultiget(hrefs))
        var members: [String: (etag: String?, text: String)] = [:]
        for response in try multistatus(answer, calendar).responses {
            if let text = response.calendarData { members[canonical(response.href)] = (strong(response.etag), text) }
        }
        return members
    }

    /// Puts a member: `etag` nil creates it only if absent (`If-None-Match: *`), else replaces it only if unchanged.
    /// - Returns: its new entity tag, when the server gives a strong one (a weak one cannot be matched: nil, and the
    ///   caller reads the member again).
    public func put(_ href: String, _ text: String, replacing etag: String?) async throws(CalDAVFailure) -> String? {
        let condition = etag.map { ["If-Match": $0] } ?? ["If-None-Match": "*"]
        let answer = try await send("PUT", href, headers: condition.merging(["Content-Type": "text/calendar; charset=utf-8"]) { $1 },
                                    body: text)
        guard (200..<300).contains(answer.status) else { throw failure(answer, href) }
        return strong(answer.headers["etag"])
    }

    /// Deletes a member only if unchanged (`If-Match`).
    public func delete(_ href: String, etag: String) async throws(CalDAVFailure) {
        let answer = try await send("DELETE", href, headers: ["If-Match": etag])
        guard (200..<300).contains(answer.status) else { throw failure(answer, href) }
    }

    // MARK: Requests

    private func propfind(_ href: String, depth: String, _ properties: [XMLName]) async throws(CalDAVFailure) -> DAVMultistatus {
        let answer = try await send("PROPFIND", href, headers: ["Depth": depth], body: DAVRequestBody.propfind(properties))
        return try multistatus(answer, href)
    }

    private func multistatus(_ answer: Answer, _ href: String) throws(CalDAVFailure) -> DAVMultistatus {
        guard answer.status == 207 else { throw failure(answer, href) }
        do {
            return try DAVMultistatus(answer.body)
        } catch {
            throw .badAnswer(href: href, message: error.message)
        }
    }

    /// The failure an unexpected answer stands for.
    private func failure(_ answer: Answer, _ href: String) -> CalDAVFailure {
        let href = canonical(href)
        let error = try? XMLReader.read(answer.body)
        let conditions = error?.children.map(\.name) ?? []
        // SabreDAV (Nextcloud, Baïkal) says what went wrong in s:message.
        let message = error?.child(XMLName("http://sabredav.org/ns", "message"))?.text ?? plainText(answer)
        switch answer.status {
        case 401: return .credentialsRefused(host: account.url.host ?? account.url.absoluteString)
        case 403 where conditions.contains(DAVName.validSyncToken), 409 where conditions.contains(DAVName.validSyncToken):
            return .tokenRefused
        case 404: return .notFound(href: href)
        case 409 where conditions.contains(XMLName(DAVName.caldav, "no-uid-conflict")):
            let existing = error?.child(XMLName(DAVName.caldav, "no-uid-conflict"))?.child(DAVName.href)?.text
            return .uidTaken(href: href, existing: existing.map(canonical))
        case 400 where message?.lowercased().contains("uid already exists") == true:
            return .uidTaken(href: href, existing: nil)
        case 412: return .preconditionFailed(href: href)
        default: return .status(answer.status, href: href, message: message)
        }
    }

    /// The start of a text answer (no markup), for a message.
    private func plainText(_ answer: Answer) -> String? {
        guard answer.headers["content-type"]?.hasPrefix("text/plain") == true else { return nil }
        let text = String(decoding: answer.body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    private struct Answer {
        let status: Int
        /// Header names in lower case.
        let headers: [String: String]
        let body: Data
    }

    /// Sends one request to `href` (a path, or an absolute URL) resolved against the account's URL, following up to
    /// five redirects on the account's origin with the same method and body (URLSession would re-send a PROPFIND's
    /// credentials but not its body, to any host).
    private func send(_ method: String, _ href: String, headers: [String: String] = [:], body: String? = nil) async throws(CalDAVFailure) -> Answer {
        let host = account.url.host ?? account.url.absoluteString
        guard var url = URL(string: href, relativeTo: account.url)?.absoluteURL else {
            throw .badAnswer(href: href, message: "not a URL")
        }
        guard sameOrigin(url, account.url) else { throw .redirectedElsewhere(href: canonical(href), to: url.absoluteString) }
        for _ in 0...5 {
            var request = URLRequest(url: url)
            request.httpMethod = method
            request.setValue("Basic " + Data("\(account.user):\(account.password)".utf8).base64EncodedString(),
                             forHTTPHeaderField: "Authorization")
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if let body {
                request.httpBody = Data(body.utf8)
                if headers["Content-Type"] == nil { request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type") }
            }
            let answer = try await exchange(request, host: host, href: href)
            guard [301, 302, 307, 308].contains(answer.status), let location = answer.headers["location"],
                  let target = URL(string: location, relativeTo: url)?.absoluteURL else { return answer }
            guard sameOrigin(target, account.url) else {
                throw .redirectedElsewhere(href: canonical(href), to: target.absoluteString)
            }
            url = target
        }
        throw .badAnswer(href: canonical(href), message: "more than five redirects")
    }

    private func exchange(_ request: URLRequest, host: String, href: String) async throws(CalDAVFailure) -> Answer {
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            if delegate.wasChallenged(request) { throw .credentialsRefused(host: host) }
            if error.code == .timedOut { throw .unreachable(host: host, message: "no answer within \(Int(timeout)) s") }
            if let reason = certificateProblem(error) { throw .untrustedCertificate(host: host, reason: reason) }
            throw .unreachable(host: host, message: error.localizedDescription)
        } catch {
            throw .unreachable(host: host, message: "\(error)")
        }
        guard let http = response as? HTTPURLResponse else { throw .badAnswer(href: canonical(href), message: "not HTTP") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Answer(status: http.statusCode, headers: fields, body: data)
    }
}

/// Whether two URLs share scheme, host and port (the origin the password goes to).
private func sameOrigin(_ first: URL, _ second: URL) -> Bool {
    func port(_ url: URL) -> Int? { url.port ?? (url.scheme == "https" ? 443 : url.scheme == "http" ? 80 : nil) }
    return first.scheme?.lowercased() == second.scheme?.lowercased() && first.host?.lowercased() == second.host?.lowercased()
        && port(first) == port(second)
}

/// Why `error` says the server's certificate failed verification, or nil when it says something else. On Linux
/// URLSession gives every TLS failure as `URLError.unknown` with libcurl's text; with OpenSSL that is
/// `SSL certificate problem: …` for the chain or the dates and `SSL: no alternative certificate subject name matches …`
/// or `SSL: certificate subject name … does not match …` for the host name.
private func certificateProblem(_ error: URLError) -> String? {
    let text = error.localizedDescription
    let chain = "SSL certificate problem: "
    if text.hasPrefix(chain) { return String(text.dropFirst(chain.count)) }
    if text.hasPrefix("SSL: no alternative certificate subject name") || text.hasPrefix("SSL: certificate subject name") {
        return "it is for another host name"
    }
    return nil
}

/// `tag` when it is a strong entity tag (`"…"`); nil for none or a weak one (`W/"…"`), which `If-Match` cannot match.
private func strong(_ tag: String?) -> String? {
    guard let tag, !tag.hasPrefix("W/"), !tag.isEmpty else { return nil }
    return tag
}

/// Refuses every authentication challenge (the credentials went with the request) and remembers which requests got
/// one; refuses every redirect, which `CalDAVClient.send` follows itself.
private final class SessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var challenged: Set<URL> = []

    /// Whether a request to `request`'s URL was challenged (and so refused); forgets it.
    func wasChallenged(_ request: URLRequest) -> Bool {
        guard let url = request.url else { return false }
        return lock.withLock { challenged.remove(url) != nil }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        if let url = task.originalRequest?.url { lock.withLock { _ = challenged.insert(url) } }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
