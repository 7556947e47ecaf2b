// CalDAVClient: the requests sync makes of a CalDAV server, over URLSession, with their answers read and their
// failures named.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
    /// Any other status.
    case status(Int, href: String)
    /// No answer: the connection failed, timed out or the certificate was refused (`message` says which).
    case unreachable(host: String, message: String)
    /// An answer that could not be read.
    case badAnswer(href: String, message: String)

    public var description: String {
        switch self {
        case .credentialsRefused(let host): "\(host) refused the user name and password"
        case .tokenRefused: "the server no longer knows the sync token"
        case .preconditionFailed(let href): "\(href) changed on the server meanwhile"
        case .uidTaken(let href, let existing): "\(href): its uid is already on the server" + (existing.map { " at \($0)" } ?? "")
        case .notFound(let href): "\(href) is not on the server"
        case .status(let code, let href): "\(href): the server answered \(code)"
        case .unreachable(let host, let message): "\(host) cannot be reached: \(message)"
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

/// The requests of sync, one method each. Each request is its own: nothing is cached between them.
public struct CalDAVClient: Sendable {
    public let account: CalDAVAccount
    /// Seconds a request may take before it counts as unreachable.
    public var timeout: TimeInterval = 60

    public init(account: CalDAVAccount) {
        self.account = account
    }

    /// The user's principal (RFC 5397 `current-user-principal`) from the account's URL.
    public func principal() async throws(CalDAVFailure) -> String {
        let answer = try await propfind(account.url.absoluteString, depth: "0", [DAVName.currentUserPrincipal])
        guard let href = answer.responses.lazy.compactMap({ $0.href(in: DAVName.currentUserPrincipal) }).first else {
            throw .badAnswer(href: account.url.path, message: "no current-user-principal")
        }
        return href
    }

    /// The principal's calendar home (RFC 4791 `calendar-home-set`).
    public func calendarHome(of principal: String) async throws(CalDAVFailure) -> String {
        let answer = try await propfind(principal, depth: "0", [DAVName.calendarHomeSet])
        guard let href = answer.responses.lazy.compactMap({ $0.href(in: DAVName.calendarHomeSet) }).first else {
            throw .badAnswer(href: principal, message: "no calendar-home-set")
        }
        return href
    }

    /// The calendars in `home`.
    public func calendars(in home: String) async throws(CalDAVFailure) -> [CalDAVCalendar] {
        let answer = try await propfind(home, depth: "1", [DAVName.resourceType, DAVName.displayName, DAVName.supportedComponents,
                                                           DAVName.calendarColor, DAVName.syncToken])
        return answer.responses.filter(\.isCalendar).map {
            CalDAVCalendar(href: $0.href, name: $0.displayName, color: $0.color, components: $0.components, syncToken: $0.syncToken)
        }
    }

    /// Makes a calendar for tasks at `href` (MKCALENDAR).
    public func makeTaskCalendar(at href: String, name: String, color: String?) async throws(CalDAVFailure) {
        let answer = try await send("MKCALENDAR", href, body: DAVRequestBody.makeTaskCalendar(name: name, color: color))
        guard answer.status == 201 else { throw failure(answer, href) }
    }

    /// The members changed since `token` (nil: all of them), by sync-collection.
    /// - Throws: `.tokenRefused` when the server no longer knows the token.
    public func changes(in calendar: String, since token: String?) async throws(CalDAVFailure) -> CalDAVChanges {
        let answer = try await send("REPORT", calendar, headers: ["Depth": "0"], body: DAVRequestBody.syncCollection(token: token))
        let read = try multistatus(answer, calendar)
        guard let newToken = read.syncToken else { throw .badAnswer(href: calendar, message: "no sync-token") }
        var changes: [String: String?] = [:]
        for response in read.responses where !sameResource(response.href, calendar) {
            if response.status == 404 {
                changes[response.href] = .some(nil)
            } else if let etag = response.etag {
                changes[response.href] = .some(etag)
            }
        }
        return CalDAVChanges(listing: .delta(changes), token: newToken, truncated: read.truncated)
    }

    /// Every task member with its entity tag, by calendar-query: the listing when a sync token is refused.
    public func entityTags(in calendar: String) async throws(CalDAVFailure) -> [String: String] {
        let answer = try await send("REPORT", calendar, headers: ["Depth": "1"], body: DAVRequestBody.taskETagQuery())
        var tags: [String: String] = [:]
        for response in try multistatus(answer, calendar).responses {
            if let etag = response.etag { tags[response.href] = etag }
        }
        return tags
    }

    /// The iCalendar text of `hrefs` (calendar-multiget); a member the server no longer has is left out.
    public func fetch(_ hrefs: [String], in calendar: String) async throws(CalDAVFailure) -> [String: (etag: String?, text: String)] {
        guard !hrefs.isEmpty else { return [:] }
        let answer = try await send("REPORT", calendar, headers: ["Depth": "1"], body: DAVRequestBody.calendarMultiget(hrefs))
        var members: [String: (etag: String?, text: String)] = [:]
        for response in try multistatus(answer, calendar).responses {
            if let text = response.calendarData { members[response.href] = (response.etag, text) }
        }
        return members
    }

    /// Puts a member: `etag` nil creates it only if absent (`If-None-Match: *`), else replaces it only if unchanged.
    /// - Returns: its new entity tag, when the server gives one.
    public func put(_ href: String, _ text: String, replacing etag: String?) async throws(CalDAVFailure) -> String? {
        let condition = etag.map { ["If-Match": $0] } ?? ["If-None-Match": "*"]
        let answer = try await send("PUT", href, headers: condition.merging(["Content-Type": "text/calendar; charset=utf-8"]) { $1 },
                                    body: text)
        guard (200..<300).contains(answer.status) else { throw failure(answer, href) }
        return answer.headers["etag"]
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
        let conditions = (try? XMLReader.read(answer.body))?.children.map(\.name) ?? []
        switch answer.status {
        case 401: return .credentialsRefused(host: account.url.host ?? account.url.absoluteString)
        case 403 where conditions.contains(DAVName.validSyncToken), 409 where conditions.contains(DAVName.validSyncToken):
            return .tokenRefused
        case 404: return .notFound(href: href)
        case 409 where conditions.contains(XMLName(DAVName.caldav, "no-uid-conflict")):
            let existing = (try? XMLReader.read(answer.body))?.child(XMLName(DAVName.caldav, "no-uid-conflict"))?.child(DAVName.href)?.text
            return .uidTaken(href: href, existing: existing)
        case 412: return .preconditionFailed(href: href)
        default: return .status(answer.status, href: href)
        }
    }

    private struct Answer {
        let status: Int
        /// Header names in lower case.
        let headers: [String: String]
        let body: Data
    }

    /// Sends one request to `href` (a path, or an absolute URL) resolved against the account's URL.
    private func send(_ method: String, _ href: String, headers: [String: String] = [:], body: String? = nil) async throws(CalDAVFailure) -> Answer {
        let host = account.url.host ?? account.url.absoluteString
        guard let url = URL(string: href, relativeTo: account.url)?.absoluteURL else {
            throw .badAnswer(href: href, message: "not a URL")
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Basic " + Data("\(account.user):\(account.password)".utf8).base64EncodedString(),
                         forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            if headers["Content-Type"] == nil { request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type") }
        }
        // URLSession on Linux never finishes a request answered 401 unless a delegate answers the challenge: this one
        // refuses it (the credentials went with the request), and the refusal is the 401.
        let refuser = ChallengeRefuser()
        let session = URLSession(configuration: .ephemeral, delegate: refuser, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw CalDAVFailure.badAnswer(href: href, message: "not HTTP") }
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
            }
            return Answer(status: http.statusCode, headers: fields, body: data)
        } catch let failure as CalDAVFailure {
            throw failure
        } catch {
            if refuser.challenged { throw .credentialsRefused(host: host) }
            throw .unreachable(host: host, message: error.localizedDescription)
        }
    }
}

/// Whether two hrefs name the same resource, a trailing slash aside.
private func sameResource(_ first: String, _ second: String) -> Bool {
    func trimmed(_ href: String) -> Substring {
        let path = URL(string: href)?.path ?? href
        return path.hasSuffix("/") ? path.dropLast() : path[...]
    }
    return trimmed(first) == trimmed(second)
}

/// Refuses every authentication challenge and remembers that one came.
private final class ChallengeRefuser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var wasChallenged = false

    var challenged: Bool { lock.withLock { wasChallenged } }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        lock.withLock { wasChallenged = true }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
