// The XML reader: namespaces, text and its references, CDATA, what it refuses; the multistatus reader on answers
// captured from Radicale 3.1; the request bodies read back.

import Sync
import Testing

@Test func namesResolveToTheirNamespaces() throws {
    let root = try XMLReader.read("""
        <?xml version="1.0"?>
        <!-- a comment -->
        <d:multistatus xmlns:d="DAV:" xmlns="urn:default"><d:response a="1" d:b='2'><plain/><x:y xmlns:x="urn:x">t</x:y></d:response></d:multistatus>
        """)
    #expect(root.name == XMLName("DAV:", "multistatus"))
    let response = try #require(root.child(XMLName("DAV:", "response")))
    #expect(response.attribute("a") == "1")
    #expect(response.attributes.map(\.name) == [XMLName("", "a"), XMLName("DAV:", "b")])
    #expect(response.children.map(\.name) == [XMLName("urn:default", "plain"), XMLName("urn:x", "y")])
    #expect(response.child(XMLName("urn:x", "y"))?.text == "t")
}

@Test func textKeepsItsReferencesCDATAAndLineBreaks() throws {
    let root = try XMLReader.read("<a>&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x1F600; <![CDATA[<raw> & ]]>\nline</a>")
    #expect(root.text == "<b> & \"c\" 'd' é😀 <raw> & \nline")
    let attribute = try XMLReader.read("<a v=\"x &amp; y\"/>")
    #expect(attribute.attribute("v") == "x & y")
}

@Test func theXMLPrefixNeedsNoDeclarationAndLineEndsReadAsLF() throws {
    let root = try XMLReader.read(Array("<a xml:lang=\"en\">one\r\ntwo\rthree&#13;</a>".utf8))
    #expect(root.attributes == [XMLAttribute(name: XMLName("http://www.w3.org/XML/1998/namespace", "lang"), value: "en")])
    // A character reference is not a line end to normalize.
    #expect(root.text == "one\ntwo\nthree\r")
    #expect(try XMLReader.read("<a>&#00000000065;&#x000041;</a>").text == "AA")
    #expect(try XMLReader.read("<?xml version='1.0' encoding='UTF-8'?><a/>").name == XMLName("", "a"))
}

@Test func whatIsNotWellFormedIsRefusedWithItsLine() {
    let cases: [(String, String)] = [
        ("<a><b></a>", "</a> closes <b>"),
        ("<a>", "<a> is not closed"),
        ("<a/><b/>", "a second root element"),
        ("text<a/>", "text outside the root element"),
        ("<p:a/>", "the prefix p of p:a is not declared"),
        ("<a>&nbsp;</a>", "the entity &nbsp; is not known"),
        ("<a>&</a>", "an & that starts no entity reference"),
        ("<!DOCTYPE a [<!ENTITY x \"y\">]><a/>", "a document type declaration is not accepted"),
        ("<a b=\"1\" b=\"2\"/>", "b appears twice in <a>"),
        ("<a b=1/>", "expected a quoted value for b"),
        ("<a><!-- open </a>", "a comment is not closed"),
        ("", "no root element"),
        ("<a>&#+65;</a>", "the entity &#+65; is not known"),
        ("<a>&#x;</a>", "the entity &#x; is not known"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", "the encoding ISO-8859-1 is not UTF-8"),
    ]
    for (text, message) in cases {
        #expect(throws: XMLProblem(line: 1, message: message), "\(text)") { try XMLReader.read(text) }
    }
    #expect(throws: XMLProblem(line: 3, message: "</c> closes <b>")) { try XMLReader.read("<a>\n<b>\n</c></a>") }
    #expect(throws: XMLProblem(line: 1, message: "the document is not UTF-8")) { try XMLReader.read([0x3C, 0x61, 0x3E, 0xE9, 0x3C, 0x2F, 0x61, 0x3E]) }
    let deep = String(repeating: "<a>", count: XMLReader.maximumDepth + 1)
    #expect(throws: XMLProblem(line: 1, message: "elements nested deeper than 256")) { try XMLReader.read(deep) }
}

// Answers as Radicale 3.1.8 gave them (captured with curl).
private let calendars = """
    <?xml version='1.0' encoding='utf-8'?>
    <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:ICAL="http://apple.com/ns/ical/"><response><href>/alice/</href><propstat><prop><resourcetype><principal /><collection /></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat><propstat><prop><displayname /><C:supported-calendar-component-set /><ICAL:calendar-color /><sync-token /></prop><status>HTTP/1.1 404 Not Found</status></propstat></response><response><href>/alice/tasks/</href><propstat><prop><resourcetype><C:calendar /><collection /></resourcetype><displayname>Tasks &amp; more</displayname><C:supported-calendar-component-set><C:comp name="VTODO" /></C:supported-calendar-component-set><ICAL:calendar-color>#FF0000FF</ICAL:calendar-color><sync-token>http://radicale.org/ns/sync/7405d0dd</sync-token></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
    """

private let delta = """
    <?xml version='1.0' encoding='utf-8'?>
    <multistatus xmlns="DAV:"><sync-token>http://radicale.org/ns/sync/cc795d30</sync-token><response><href>/alice/tasks/t1.ics</href><status>HTTP/1.1 404 Not Found</status></response><response><href>/alice/tasks/t2.ics</href><propstat><prop><getetag>"8a154029"</getetag></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
    """

private let multiget = """
    <?xml version='1.0' encoding='utf-8'?>
    <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/alice/tasks/missing.ics</href><status>HTTP/1.1 404 Not Found</status></response><response><href>/alice/tasks/t2.ics</href><propstat><prop><getetag>"8a154029"</getetag><C:calendar-data>BEGIN:VCALENDAR
    VERSION:2.0
    BEGIN:VTODO
    DESCRIPTION:line one\\nline two
    SUMMARY:Second
    UID:t2
    END:VTODO
    END:VCALENDAR
    </C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
    """

@Test func radicalesAnswersRead() throws {
    let listing = try DAVMultistatus(Array(calendars.utf8))
    #expect(listing.responses.map(\.href) == ["/alice/", "/alice/tasks/"])
    let home = listing.responses[0]
    #expect(!home.isCalendar && home.missing[DAVName.displayName] == 404 && home.displayName == nil)
    let tasks = listing.responses[1]
    #expect(tasks.isCalendar && tasks.displayName == "Tasks & more" && tasks.components == ["VTODO"])
    #expect(tasks.color == "#FF0000FF" && tasks.syncToken == "http://radicale.org/ns/sync/7405d0dd")

    let changes = try DAVMultistatus(Array(delta.utf8))
    #expect(changes.syncToken == "http://radicale.org/ns/sync/cc795d30")
    #expect(changes.responses.map(\.status) == [404, nil])
    #expect(changes.responses[1].etag == "\"8a154029\"")

    let fetched = try DAVMultistatus(Array(multiget.utf8))
    #expect(fetched.responses[0].status == 404 && fetched.responses[0].calendarData == nil)
    #expect(fetched.responses[1].calendarData?.hasPrefix("BEGIN:VCALENDAR\nVERSION:2.0\n") == true)
    #expect(fetched.responses[1].calendarData?.contains("DESCRIPTION:line one\\nline two\n") == true)
}

@Test func prettyPrintedAnswersAndSeveralHrefsRead() throws {
    let text = [
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
        "<d:multistatus xmlns:d=\"DAV:\">",
        "  <d:response>",
        "    <d:href>",
        "      /cal/a.ics",
        "    </d:href>",
        "    <d:propstat>",
        "      <d:prop><d:getetag> \"e1\" </d:getetag></d:prop>",
        "      <d:status>\tHTTP/1.1   200 OK\t</d:status>",
        "    </d:propstat>",
        "    <d:responsedescription xml:lang=\"en\">fine</d:responsedescription>",
        "  </d:response>",
        "  <d:response>",
        "    <d:href>/cal/b.ics</d:href>",
        "    <d:href>/cal/c.ics</d:href>",
        "    <d:status>HTTP/1.1 404 Not Found</d:status>",
        "  </d:response>",
        "  <d:response>",
        "    <d:href>/cal/</d:href>",
        "    <d:status>HTTP/1.1 507 Insufficient Storage</d:status>",
        "    <d:error><d:number-of-matches-within-limits/></d:error>",
        "  </d:response>",
        "  <d:sync-token>",
        "    http://example.com/sync/2",
        "  </d:sync-token>",
        "</d:multistatus>",
    ].joined(separator: "\r\n")
    let answer = try DAVMultistatus(Array(text.utf8))
    #expect(answer.responses.map(\.href) == ["/cal/a.ics", "/cal/b.ics", "/cal/c.ics", "/cal/"])
    #expect(answer.responses.map(\.status) == [nil, 404, 404, 507])
    #expect(answer.responses[0].etag == "\"e1\"")
    #expect(answer.syncToken == "http://example.com/sync/2")
    #expect(answer.truncated && answer.responses[3].errors == [XMLName(DAVName.dav, "number-of-matches-within-limits")])
    #expect(try DAVMultistatus(Array(delta.utf8)).truncated == false)
    let empty = try DAVMultistatus(Array("<multistatus xmlns=\"DAV:\"><sync-token/></multistatus>".utf8))
    #expect(empty.syncToken == nil && empty.responses.isEmpty)
}

@Test func answersThatAreNoMultistatusAreProblems() {
    let cases: [(String, String)] = [
        ("<error xmlns=\"DAV:\"><valid-sync-token/></error>", "expected a DAV: multistatus, got {DAV:}error"),
        ("<multistatus xmlns=\"DAV:\"><response><status>HTTP/1.1 200 OK</status></response></multistatus>", "a response has no href"),
        ("<multistatus xmlns=\"DAV:\"><response><href>/a</href><status>200</status></response></multistatus>",
         "the status of /a is not an HTTP status line: 200"),
        ("<multistatus xmlns=\"DAV:\"><response><href>/a</href></response></multistatus>",
         "the response for /a has neither a status nor properties"),
        ("not xml", "the answer is not XML: line 1: text outside the root element"),
        ("<multistatus xmlns=\"DAV:\"><response><href>/a</href><href>/b</href><propstat><prop/><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>",
         "the response for /a names several resources but no status"),
    ]
    for (text, message) in cases {
        #expect(throws: DAVProblem(message), "\(text)") { try DAVMultistatus(Array(text.utf8)) }
    }
}

@Test func requestBodiesAreXMLInTheRightNamespacesWithTheirTextEscaped() throws {
    let sync = try XMLReader.read(DAVRequestBody.syncCollection(token: "http://x/sync/1?a=1&b=<2>"))
    #expect(sync.name == XMLName(DAVName.dav, "sync-collection"))
    #expect(sync.child(DAVName.syncToken)?.text == "http://x/sync/1?a=1&b=<2>")
    #expect(sync.child(XMLName(DAVName.dav, "sync-level"))?.text == "1")
    #expect(sync.child(DAVName.prop)?.children.map(\.name) == [DAVName.getETag])
    let first = try XMLReader.read(DAVRequestBody.syncCollection(token: nil))
    #expect(first.child(DAVName.syncToken)?.text == "")

    let get = try XMLReader.read(DAVRequestBody.calendarMultiget(["/a b/1.ics", "/c&d/2.ics"]))
    #expect(get.name == XMLName(DAVName.caldav, "calendar-multiget"))
    #expect(get.children(DAVName.href).map(\.text) == ["/a b/1.ics", "/c&d/2.ics"])
    #expect(get.child(DAVName.prop)?.children.map(\.name) == [DAVName.getETag, DAVName.calendarData])

    let make = try XMLReader.read(DAVRequestBody.makeTaskCalendar(name: "A & B", color: "#112233"))
    let properties = try #require(make.child(XMLName(DAVName.dav, "set"))?.child(DAVName.prop))
    #expect(properties.child(DAVName.displayName)?.text == "A & B")
    #expect(properties.child(DAVName.calendarColor)?.text == "#112233")
    #expect(properties.child(DAVName.supportedComponents)?.child(DAVName.component)?.attribute("name") == "VTODO")

    let query = try XMLReader.read(DAVRequestBody.taskETagQuery())
    let filter = try #require(query.child(XMLName(DAVName.caldav, "filter")))
    #expect(filter.child(XMLName(DAVName.caldav, "comp-filter"))?.child(XMLName(DAVName.caldav, "comp-filter"))?.attribute("name") == "VTODO")

    let other = try XMLReader.read(DAVRequestBody.propfind([DAVName.currentUserPrincipal, XMLName("urn:other", "thing")]))
    #expect(other.child(DAVName.prop)?.children.map(\.name) == [DAVName.currentUserPrincipal, XMLName("urn:other", "thing")])
}
