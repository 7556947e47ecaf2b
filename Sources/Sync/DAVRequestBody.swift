// DAVRequestBody: the XML bodies of the WebDAV and CalDAV requests sync sends.

/// The body of each request sync sends, as UTF-8 XML text. Every text and href is escaped.
public enum DAVRequestBody {
    /// PROPFIND for `properties` (RFC 4918 §9.1).
    public static func propfind(_ properties: [XMLName]) -> String {
        document("propfind", DAVName.dav, prop(properties))
    }

    /// REPORT sync-collection (RFC 6578 §3.2) from `token` (nil: the first sync, every member), sync-level 1 (the
    /// collection's own members), asking for `properties` of the changed members. Send it with `Depth: 0`.
    public static func syncCollection(token: String?, properties: [XMLName] = [DAVName.getETag]) -> String {
        document("sync-collection", DAVName.dav,
                 element(DAVName.syncToken, text: token ?? "") + element(XMLName(DAVName.dav, "sync-level"), text: "1")
                     + prop(properties))
    }

    /// REPORT calendar-multiget (RFC 4791 §7.9) of `hrefs`, with their entity tags and calendar data.
    public static func calendarMultiget(_ hrefs: [String]) -> String {
        document("calendar-multiget", DAVName.caldav,
                 prop([DAVName.getETag, DAVName.calendarData]) + hrefs.map { element(DAVName.href, text: $0) }.joined())
    }

    /// REPORT calendar-query (RFC 4791 §7.8) for every VTODO's entity tag: the listing sync falls back to where a
    /// server has no sync-collection or refuses the token.
    public static func taskETagQuery() -> String {
        let filter = "<c:filter><c:comp-filter name=\"VCALENDAR\"><c:comp-filter name=\"VTODO\"/></c:comp-filter></c:filter>"
        return document("calendar-query", DAVName.caldav, prop([DAVName.getETag]) + filter)
    }

    /// MKCALENDAR (RFC 4791 §5.3.1) of a calendar for tasks only, named `name`, with `color` (`#RRGGBB`) if given.
    public static func makeTaskCalendar(name: String, color: String?) -> String {
        var properties = element(DAVName.displayName, text: name)
        if let color { properties += element(DAVName.calendarColor, text: color) }
        properties += "<c:supported-calendar-component-set><c:comp name=\"VTODO\"/></c:supported-calendar-component-set>"
        return document("mkcalendar", DAVName.caldav, "<d:set><d:prop>" + properties + "</d:prop></d:set>")
    }

    /// PROPPATCH (RFC 4918 §9.2) setting each of `set` to its text, then removing each of `remove`.
    public static func propertyUpdate(set: [(name: XMLName, text: String)], remove: [XMLName]) -> String {
        var content = ""
        if !set.isEmpty { content += "<d:set><d:prop>" + set.map { element($0.name, text: $0.text) }.joined() + "</d:prop></d:set>" }
        if !remove.isEmpty { content += "<d:remove>" + prop(remove) + "</d:remove>" }
        return document("propertyupdate", DAVName.dav, content)
    }

    /// A document whose root is `root` in `namespace`, declaring the prefixes `d`, `c` and `a` for DAV, CalDAV and
    /// Apple's namespace.
    private static func document(_ root: String, _ namespace: String, _ content: String) -> String {
        let prefixed = (prefix(namespace) ?? "d") + ":" + root
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<\(prefixed) xmlns:d=\"DAV:\" xmlns:c=\"\(DAVName.caldav)\" "
            + "xmlns:a=\"\(DAVName.apple)\" xmlns:s=\"\(DAVName.calendarServer)\">" + content + "</\(prefixed)>"
    }

    private static func prop(_ properties: [XMLName]) -> String {
        "<d:prop>" + properties.map { element($0, text: "") }.joined() + "</d:prop>"
    }

    /// `<prefix:local>text</prefix:local>`, or `<prefix:local/>` for no text; a namespace other than the four the
    /// root declares is declared on the element itself.
    private static func element(_ name: XMLName, text: String) -> String {
        let known = prefix(name.namespace)
        let qualified = (known ?? "x") + ":" + name.local
        let declaration = known == nil ? " xmlns:x=\"\(xmlEscaped(name.namespace))\"" : ""
        return text.isEmpty ? "<\(qualified)\(declaration)/>" : "<\(qualified)\(declaration)>\(xmlEscaped(text))</\(qualified)>"
    }

    /// The prefix the root declares for `namespace`, nil for another namespace.
    private static func prefix(_ namespace: String) -> String? {
        switch namespace {
        case DAVName.dav: "d"
        case DAVName.caldav: "c"
        case DAVName.apple: "a"
        case DAVName.calendarServer: "s"
        default: nil
        }
    }
}

/// `text` with `& < > " '` written as entity references, so it stays text in an element or an attribute.
func xmlEscaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        default: result.unicodeScalars.append(character)
        }
    }
    return result
}
