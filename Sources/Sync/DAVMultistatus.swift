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

    /// The entity tag, quotes and all, as `If-Match` wants it back.
    public var etag: String? { properties[DAVName.getETag].map(\.text).flatMap { $0.isEmpty ? nil : $0 } }
    /// The iCalendar text of a calendar object (calendar-multiget, calendar-query).
    public var calendarData: String? { properties[DAVName.calendarData]?.text }
    /// The display name.
    public var displayName: String? { properties[DAVName.displayName]?.text }
    /// Whether the resource is a calendar collection.
    public var isCalendar: Bool { properties[DAVName.resourceType]?.child(DAVName.calendar) != nil }
    /// The components a calendar takes (`VTODO`, `VEVENT`); nil when the server did not say (then it takes all).
    public var components: [String]? {
        properties[DAVName.supportedComponents].map { $0.children(DAVName.component).compactMap { $0.attribute("name") } }
    }
    /// The calendar's colour (Apple's `calendar-color`, `#RRGGBB` or `#RRGGBBAA`).
    public var color: String? { properties[DAVName.calendarColor].map(\.text).flatMap { $0.isEmpty ? nil : $0 } }
    /// The collection's sync token as a property (PROPFIND).
    public var syncToken: String? { properties[DAVName.syncToken].map(\.text).flatMap { $0.isEmpty ? nil : $0 } }
    /// The first href inside property `name` (`current-user-principal`, `calendar-home-set`).
    public func href(in name: XMLName) -> String? { properties[name]?.child(DAVName.href)?.text }
}

/// A whole multistatus answer.
public struct DAVMultistatus: Hashable, Sendable {
    /// The responses, in the server's order.
    public var responses: [DAVResponse]
    /// The new sync token of a sync-collection report.
    public var syncToken: String?

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
        syncToken = root.child(DAVName.syncToken).map(\.text)
        responses = []
        for response in root.children(DAVName.response) {
            guard let href = response.child(DAVName.href)?.text, !href.isEmpty else {
                throw DAVProblem("a response has no href")
            }
            var read = DAVResponse(href: href, status: nil, properties: [:], missing: [:])
            if let status = response.child(DAVName.status) {
                read.status = try statusCode(status.text, of: href)
            }
            for propstat in response.children(DAVName.propstat) {
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
            guard read.status != nil || !response.children(DAVName.propstat).isEmpty else {
                throw DAVProblem("the response for \(href) has neither a status nor properties")
            }
            responses.append(read)
        }
    }
}

/// `HTTP/1.1 404 Not Found` → 404.
private func statusCode(_ line: String, of href: String) throws(DAVProblem) -> Int {
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]), (100..<600).contains(code) else {
        throw DAVProblem("the status of \(href) is not an HTTP status line: \(line)")
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
