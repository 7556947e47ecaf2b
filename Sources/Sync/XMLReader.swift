// XMLReader: the XML a WebDAV server answers with, read into elements with their namespaces resolved.

/// An element of an XML document, its name resolved to its namespace.
///
/// WebDAV's elements hold either text or elements, so an element keeps its child elements and, apart, the character
/// data directly inside it (text and CDATA sections, joined), not the two interleaved.
public struct XMLElement: Hashable, Sendable {
    /// The name, its namespace resolved.
    public var name: XMLName
    /// The attributes, in document order (namespace declarations left out).
    public var attributes: [XMLAttribute]
    /// The child elements, in document order.
    public var children: [XMLElement]
    /// The character data directly inside, entity references replaced.
    public var text: String

    public init(name: XMLName, attributes: [XMLAttribute] = [], children: [XMLElement] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child element named `name`.
    public func child(_ name: XMLName) -> XMLElement? { children.first { $0.name == name } }

    /// The child elements named `name`.
    public func children(_ name: XMLName) -> [XMLElement] { children.filter { $0.name == name } }

    /// The value of the attribute with local name `name` and no namespace.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name.namespace.isEmpty && $0.name.local == name }?.value
    }
}

/// A name with its namespace: `DAV:` and `href` for `<d:href xmlns:d="DAV:">`.
public struct XMLName: Hashable, Sendable, CustomStringConvertible {
    /// The namespace's URI; empty for none.
    public var namespace: String
    /// The local name.
    public var local: String

    public init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// `{namespace}local`, as WebDAV's specifications write names.
    public var description: String { "{\(namespace)}\(local)" }
}

/// An attribute of an element.
public struct XMLAttribute: Hashable, Sendable {
    public var name: XMLName
    public var value: String

    public init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}

/// What is wrong with a document, and where.
public struct XMLProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// What is wrong, in words.
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

/// Reads a whole XML document (UTF-8) into its root element.
///
/// It reads what WebDAV servers send, in UTF-8: the XML declaration, comments, processing instructions, elements with
/// namespace declarations and attributes (`xml:` needs none), character data with the predefined and numeric entity
/// references, CDATA sections; line ends are read as LF. A document type declaration is refused (no server needs one;
/// refusing it rules out entity expansion), as is anything not well-formed: bytes that are not UTF-8 or a declared
/// encoding that is not, an unclosed or mismatched element, an undeclared prefix, an unknown entity, a second root,
/// text outside the root.
public enum XMLReader {
    /// Elements nested deeper than this are refused.
    public static let maximumDepth = 256

    /// The document's root element.
    /// - Throws: `XMLProblem` naming the line and what is wrong.
    /// - Complexity: O(n) for n bytes.
    public static func read(_ bytes: some Collection<UInt8>) throws(XMLProblem) -> XMLElement {
        let bytes = Array(bytes)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw XMLProblem(line: 1, message: "the document is not UTF-8")
        }
        var scanner = XMLScanner(normalizingLineEnds(bytes))
        return try scanner.document()
    }

    /// The document's root element, from text.
    public static func read(_ text: String) throws(XMLProblem) -> XMLElement {
        try read(Array(text.utf8))
    }
}

/// `bytes` with each CR LF and each lone CR read as LF (XML 1.0 §2.11).
private func normalizingLineEnds(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.contains(0x0D) else { return bytes }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    for (index, byte) in bytes.enumerated() {
        if byte == 0x0D {
            if index + 1 < bytes.count, bytes[index + 1] == 0x0A { continue }
            result.append(0x0A)
        } else {
            result.append(byte)
        }
    }
    return result
}

/// An element being read: its raw name, attributes and the namespaces it declares, its content so far.
private struct OpenElement {
    var rawName: String
    var element: XMLElement
    var namespaces: [String: String]
    var text: [UInt8] = []
}

/// The reader's cursor over the document's bytes.
private struct XMLScanner {
    let bytes: [UInt8]
    var at = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    }

    mutating func document() throws(XMLProblem) -> XMLElement {
        var open: [OpenElement] = []
        var root: XMLElement?
        while at < bytes.count {
            if bytes[at] != UInt8(ascii: "<") {
                let start = at
                while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
                if open.isEmpty {
                    guard bytes[start..<at].allSatisfy(isSpace) else { throw problem(at: start, "text outside the root element") }
                } else {
                    try appendText(bytes[start..<at], to: &open[open.count - 1].text, at: start)
                }
                continue
            }
            if matches("<?") {
                let start = at
                try skip(past: "?>", what: "processing instruction")
                try checkEncoding(bytes[start..<at], at: start)
            } else if matches("<!--") {
                try skip(past: "-->", what: "comment")
            } else if matches("<![CDATA[") {
                guard !open.isEmpty else { throw problem(at: at, "a CDATA section outside the root element") }
                at += 9
                let start = at
                try skip(past: "]]>", what: "CDATA section")
                open[open.count - 1].text += bytes[start..<(at - 3)]
            } else if matches("<!") {
                throw problem(at: at, "a document type declaration is not accepted")
            } else if matches("</") {
                at += 2
                let name = try rawName()
                skipSpaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw problem(at: at, "expected > to end </\(name)") }
                at += 1
                guard let last = open.popLast() else { throw problem(at: at, "</\(name)> closes no element") }
                guard last.rawName == name else { throw problem(at: at, "</\(name)> closes <\(last.rawName)>") }
                close(last, into: &open, root: &root)
            } else {
                guard root == nil || !open.isEmpty else { throw problem(at: at, "a second root element") }
                at += 1
                let (element, selfClosing) = try startTag(scopes: open.last?.namespaces ?? ["xml": xmlNamespace])
                guard open.count < XMLReader.maximumDepth else {
                    throw problem(at: at, "elements nested deeper than \(XMLReader.maximumDepth)")
                }
                if selfClosing { close(element, into: &open, root: &root) } else { open.append(element) }
            }
        }
        if let last = open.last { throw problem(at: at, "<\(last.rawName)> is not closed") }
        guard let root else { throw problem(at: at, "no root element") }
        return root
    }

    /// Refuses an XML declaration naming an encoding other than UTF-8 (the bytes are read as UTF-8).
    private func checkEncoding(_ instruction: ArraySlice<UInt8>, at start: Int) throws(XMLProblem) {
        let text = String(decoding: instruction, as: UTF8.self)
        guard text.hasPrefix("<?xml "), let value = pseudoAttribute("encoding", in: text) else { return }
        guard ["utf-8", "utf8"].contains(value.lowercased()) else {
            throw problem(at: start, "the encoding \(value) is not UTF-8")
        }
    }

    /// Finishes an element: its text decoded, added to its parent (or made the root).
    private func close(_ finished: OpenElement, into open: inout [OpenElement], root: inout XMLElement?) {
        var element = finished.element
        element.text = String(decoding: finished.text, as: UTF8.self)
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].element.children.append(element)
        }
    }

    /// Reads a start tag after its `<`: the element with its namespace resolved, and whether it closed itself.
    private mutating func startTag(scopes: [String: String]) throws(XMLProblem) -> (OpenElement, Bool) {
        let start = at
        let name = try rawName()
        var raw: [(String, String)] = []
        var seen: Set<String> = []
        var namespaces = scopes
        var selfClosing = false
        while true {
            let spaced = skipSpaces()
            guard at < bytes.count else { throw problem(at: start, "<\(name) is not closed") }
            if bytes[at] == UInt8(ascii: ">") {
                at += 1
                break
            }
            if matches("/>") {
                at += 2
                selfClosing = true
                break
            }
            guard spaced else { throw problem(at: at, "expected a space before an attribute of <\(name)>") }
            let attribute = try rawName()
            skipSpaces()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw problem(at: at, "expected = after \(attribute)") }
            at += 1
            skipSpaces()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                throw problem(at: at, "expected a quoted value for \(attribute)")
            }
            let quote = bytes[at]
            at += 1
            let valueStart = at
            while at < bytes.count, bytes[at] != quote {
                guard bytes[at] != UInt8(ascii: "<") else { throw problem(at: at, "< in the value of \(attribute)") }
                at += 1
            }
            guard at < bytes.count else { throw problem(at: valueStart, "the value of \(attribute) is not closed") }
            var value: [UInt8] = []
            try appendText(bytes[valueStart..<at], to: &value, at: valueStart)
            at += 1
            let text = String(decoding: value, as: UTF8.self)
            guard seen.insert(attribute).inserted else { throw problem(at: at, "\(attribute) appears twice in <\(name)>") }
            if attribute == "xmlns" {
                namespaces[""] = text
            } else if attribute.hasPrefix("xmlns:") {
                namespaces[String(attribute.dropFirst(6))] = text
            } else {
                raw.append((attribute, text))
            }
        }
        var attributes: [XMLAttribute] = []
        for (attribute, value) in raw {
            // An attribute without a prefix is in no namespace.
            let resolved = attribute.contains(":") ? try resolve(attribute, in: namespaces, at: start) : XMLName("", attribute)
            attributes.append(XMLAttribute(name: resolved, value: value))
        }
        let element = XMLElement(name: try resolve(name, in: namespaces, at: start, element: true), attributes: attributes)
        return (OpenElement(rawName: name, element: element, namespaces: namespaces), selfClosing)
    }

    /// `prefix:local` (or `local`) resolved in `namespaces`; an element without a prefix is in the default namespace.
    private func resolve(_ raw: String, in namespaces: [String: String], at start: Int,
                         element: Bool = false) throws(XMLProblem) -> XMLName {
        let parts = raw.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return XMLName(element ? namespaces[""] ?? "" : "", raw) }
        guard let namespace = namespaces[String(parts[0])] else {
            throw problem(at: start, "the prefix \(parts[0]) of \(raw) is not declared")
        }
        return XMLName(namespace, String(parts[1]))
    }

    /// A name: letters, digits and `_ - . :`, and any non-ASCII byte.
    private mutating func rawName() throws(XMLProblem) -> String {
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            let isNameByte = byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            guard isNameByte else { break }
            at += 1
        }
        guard at > start else { throw problem(at: start, "expected a name") }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    /// Character data with its entity references replaced, appended to `output`.
    private func appendText(_ text: ArraySlice<UInt8>, to output: inout [UInt8], at start: Int) throws(XMLProblem) {
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let end = text[index...].prefix(64).firstIndex(of: UInt8(ascii: ";")) else {
                throw problem(at: index, "an & that starts no entity reference")
            }
            let name = String(decoding: text[(index + 1)..<end], as: UTF8.self)
            switch name {
            case "lt": output.append(UInt8(ascii: "<"))
            case "gt": output.append(UInt8(ascii: ">"))
            case "amp": output.append(UInt8(ascii: "&"))
            case "quot": output.append(UInt8(ascii: "\""))
            case "apos": output.append(UInt8(ascii: "'"))
            default:
                let hex = name.hasPrefix("#x")
                let digits = name.dropFirst(hex ? 2 : 1)
                guard name.hasPrefix("#"), !digits.isEmpty, digits.allSatisfy({ hex ? $0.isHexDigit : $0.isASCII && $0.isNumber }),
                      let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value), value != 0 else {
                    throw problem(at: index, "the entity &\(name); is not known")
                }
                output += Array(String(Character(scalar)).utf8)
            }
            index = end + 1
        }
    }

    /// Whether the bytes at the cursor are `text`.
    private func matches(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: count)
        for offset in 0..<count where bytes[at + offset] != pattern[offset] { return false }
        return true
    }

    /// Moves the cursor past the next `end`.
    private mutating func skip(past end: StaticString, what: String) throws(XMLProblem) {
        let start = at
        while at < bytes.count {
            if matches(end) {
                at += end.utf8CodeUnitCount
                return
            }
            at += 1
        }
        throw problem(at: start, "a \(what) is not closed")
    }

    /// Skips spaces; whether there were any.
    @discardableResult
    private mutating func skipSpaces() -> Bool {
        let start = at
        while at < bytes.count, isSpace(bytes[at]) { at += 1 }
        return at > start
    }

    private func problem(at offset: Int, _ message: String) -> XMLProblem {
        let line = 1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return XMLProblem(line: line, message: message)
    }
}

/// The value of pseudo-attribute `name` in an XML declaration (`encoding="UTF-8"`), nil when it has none.
private func pseudoAttribute(_ name: String, in declaration: String) -> String? {
    let parts = declaration.split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let part = parts.first(where: { $0.hasPrefix(name + "=") }) else { return nil }
    let value = part.dropFirst(name.count + 1).drop { $0 == "\"" || $0 == "'" }
    return String(value.prefix { $0 != "\"" && $0 != "'" && $0 != "?" })
}

/// The namespace the `xml` prefix is bound to without a declaration (`xml:lang`).
private let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
