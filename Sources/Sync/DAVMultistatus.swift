// DAVMultistatus: a WebDAV `207 Multi-Status` answer (RFC 4918 §13), as CalDAV servers send it for PROPFIND and
// REPORT (sync-collection, RFC 6578; calendar-multiget and calendar-query, RFC 4791).

/// The names of the properties and elements sync reads and writes.
public enum DAVName {
    public static let dav = "DAV:"
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    public static let apple = "http://apple.com/ns/ical/"
    public static let calendarServer = "http://calendarserver.org/ns/"

    public static let multistatus = XMLName(dav, "multistatus")
    public static let response = XMLName(dav, "response")
    public static let href = XMLName(dav, "href")
    public static let status = XMLName(dav, "status")
    public static let propstat = XMLName(dav, "propstat")
    public static let prop = XMLName(dav, "prop")
    public static let syncToken = XMLName(dav, "sync-token")
    public static let error = XMLName(dav, "error")
    public static let validSyncToken = XMLName(dav, "valid-sync-token")

    public static let getETag = XMLName(dav, "getetag")
    public static let displayName = XMLName(dav, "displayname")
    public static let resourceType = XMLName(dav, "resourcetype")
    public static let collection = XMLName(dav, "collection")
    public static let currentUserPrincipal = XMLName(dav, "current-user-principal")
    public static let calendarHomeSet = XMLName(caldav, "calendar-home-set")
    public static let calendar = XMLName(caldav, "calendar")
    public static let calendarData = XMLName(caldav, "calendar-data")
    public static let supportedComponents = XMLName(caldav, "supported-calendar-component-set")
    public static let component = XMLName(caldav, "comp")
    public static let calendarColor = XMLName(apple, "calendar-color")
    public static let getCTag = XMLName(calendarServer, "getctag")
}

/// One `response` of a multistatus: a resource, and what the server said of it or of its properties.
public struct DAVResponse: Hashable, Sendable {
    /// The resource's href as the server wrote it (a path, or an absolute URL).
    public var href: String
    /// The status of the resource as a whole, when the server gave one instead of properties (404: it is gone,
    /// as sync-collection reports a deleted member).
    public var status: Int?
    /// The properties the server returned with a 2xx status, by name.
    public var properties: [XMLName: XMLElement]
    /// The properties it did not return, with their status (404: the resource has none).
    public var missing: [XMLName: Int]
    /// The names of the conditions in the response's `error` element, if any (RFC 4918 §16): why it failed.
    public var errors: [XMLName] = []

    /// The entity tag, quotes and all, as `If-Match` wants it back.
    public var etag: String? { properties[DAVName.getETag].flatMap { nonEmpty($0.text) } }
    /// The iCalendar text of a calendar object (calendar-multiget, calendar-query).
    public var calendarData: String? { properties[DAVName.calendarData]?.text }
    /// The display name.
    public var displayName: String? { properties[DAVName.displayName].flatMap { nonEmpty($0.text) } }
    /// Whether the resource is a calendar collection.
    public var isCalendar: Bool { properties[DAVName.resourceType]?.child(DAVName.calendar) != nil }
    /// The components a calendar takes (`VTODO`, `VEVENT`); nil when the server did not say (then it takes all).
    public var components: [String]? {
        properties[DAVName.supportedComponents].map { $0.children(DAVName.component).compactMap { $0.attribute("name") } }
    }
    /// The calendar's colour (Apple's `calendar-color`, `#RRGGBB` or `#RRGGBBAA`).
    public var color: String? { properties[DAVName.calendarColor].flatMap { nonEmpty($0.text) } }
    /// The collection's sync token as a property (PROPFIND).
    public var syncToken: String? { properties[DAVName.syncToken].flatMap { nonEmpty($0.text) } }
    /// The first href inside property `name` (`current-user-principal`, `calendar-home-set`).
    public func href(in name: XMLName) -> String? { properties[name]?.child(DAVName.href).flatMap { nonEmpty($0.text) } }
}

/// A whole multistatus answer.
public struct DAVMultistatus: Hashable, Sendable {
    /// The responses, in the server's order, one per href (a response may name several resources with one status).
    /// A sync-collection report may hold one for the collection itself: 507 when the server truncated the report.
    public var responses: [DAVResponse]
    /// The new sync token of a sync-collection report.
    public var syncToken: String?
    /// Whether the server left members out (RFC 6578 §3.6: a 507 response for the request's collection); the
    /// sync token then covers only what was reported, and the client asks again from it.
    public var truncated: Bool { responses.contains { $0.status == 507 } }

    /// Reads a multistatus document.
    /// - Throws: `DAVProblem` when the body is not XML, is not a multistatus, or a response lacks its href or
    ///   any status.
    /// - Complexity: O(n) for n bytes.
    public init(_ body: some Collection<UInt8>) throws(DAVProblem) {
        let root: XMLElement
        do {
            root = try XMLReader.read(body)
        } catch {
            throw DAVProblem("the answer is not XML: \(error)")
        }
        guard root.name == DAVName.multistatus else { throw DAVProblem("expected a DAV: multistatus, got \(root.name)") }
        syncToken = root.child(DAVName.syncToken).flatMap { nonEmpty($0.text) }
        responses = []
        for response in root.children(DAVName.response) {
            let hrefs = response.children(DAVName.href).compactMap { nonEmpty($0.text) }
            guard let href = hrefs.first else { throw DAVProblem("a response has no href") }
            let propstats = response.children(DAVName.propstat)
            let errors = response.child(DAVName.error)?.children.map(\.name) ?? []
            if let status = response.child(DAVName.status) {
                // `href+, status`: the same status for each resource named.
                let code = try statusCode(status.text, of: href)
                for each in hrefs {
                    responses.append(DAVResponse(href: each, status: code, properties: [:], missing: [:], errors: errors))
                }
                continue
            }
            guard !propstats.isEmpty else { throw DAVProblem("the response for \(href) has neither a status nor properties") }
            guard hrefs.count == 1 else { throw DAVProblem("the response for \(href) names several resources but no status") }
            var read = DAVResponse(href: href, status: nil, properties: [:], missing: [:], errors: errors)
            for propstat in propstats {
                guard let status = propstat.child(DAVName.status) else { throw DAVProblem("a propstat of \(href) has no status") }
                let code = try statusCode(status.text, of: href)
                for property in propstat.child(DAVName.prop)?.children ?? [] {
                    if (200..<300).contains(code) {
                        read.properties[property.name] = property
                    } else {
                        read.missing[property.name] = code
                    }
                }
            }
            responses.append(read)
        }
    }
}

/// `text` without the XML white space around it; nil when nothing is left. Servers may pretty-print their answers.
private func nonEmpty(_ text: String) -> String? {
    let trimmed = text.utf8.drop { isXMLSpace($0) }.reversed().drop { isXMLSpace($0) }.reversed()
    return trimmed.isEmpty ? nil : String(decoding: Array(trimmed), as: UTF8.self)
}

private func isXMLSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

/// `HTTP/1.1 404 Not Found` → 404.
private func statusCode(_ line: String, of href: String) throws(DAVProblem) -> Int {
    let parts = line.split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]), (100..<600).contains(code) else {
        throw DAVProblem("the status of \(href) is not an HTTP status line: \(nonEmpty(line) ?? "")")
    }
    return code
}

/// What was wrong with a server's answer, in words.
public struct DAVProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
