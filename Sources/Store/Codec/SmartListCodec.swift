// SmartListCodec: smart lists, their rules and filters as bytes, and back (journal records and snapshots).

import Domain

/// The layouts of smart lists' values:
///
/// ```
/// SmartListID    varint
/// Filter         text string | done u8 (0 any, 1 done, 2 notDone) | tagsAnyOf tags | tagsAllOf tags
///                | priorityAtLeast optional Priority | dueBefore optional Due | dueAfter optional Due
/// SmartListRule  Filter | lists: u8 0 (every list) or 1, then varint count, ListIDs (ascending)
/// SmartList      SmartListID | name string | color optional string | icon optional string | SmartListRule | Position
/// ```
/// The other layouts (strings, tags, Priority, Due, Position) are `ValueCodec`'s.
enum SmartListCodec {}

extension ByteWriter {
    mutating func write(_ id: SmartListID) { writeVarint(id.rawValue) }

    mutating func write(_ filter: Filter) {
        writeString(filter.text)
        switch filter.done {
        case .any: write(0)
        case .done: write(1)
        case .notDone: write(2)
        }
        write(tags: filter.tagsAnyOf)
        write(tags: filter.tagsAllOf)
        writeOptional(filter.priorityAtLeast) { $0.write($1) }
        writeOptional(filter.dueBefore) { $0.write($1) }
        writeOptional(filter.dueAfter) { $0.write($1) }
    }

    /// A set of source lists, ascending.
    mutating func write(sources: Set<ListID>) {
        writeCount(sources.count)
        for list in sources.sorted() { write(list) }
    }

    mutating func write(_ rule: SmartListRule) {
        write(rule.filter)
        writeOptional(rule.lists) { $0.write(sources: $1) }
    }

    mutating func write(_ smartList: SmartList) {
        write(smartList.id)
        writeString(smartList.name)
        writeOptional(smartList.color) { $0.writeString($1) }
        writeOptional(smartList.icon) { $0.writeString($1) }
        write(smartList.rule)
        write(smartList.position)
    }
}

extension ByteReader {
    mutating func readSmartListID() throws(CodecError) -> SmartListID { SmartListID(try readVarint()) }

    mutating func readFilter() throws(CodecError) -> Filter {
        let text = try readString()
        let done: Filter.Completion
        switch try read() {
        case 0: done = .any
        case 1: done = .done
        case 2: done = .notDone
        case let byte: throw CodecError(offset: offset - 1, problem: "a filter's done is \(byte), not 0 to 2")
        }
        let anyOf = try readTags()
        let allOf = try readTags()
        let priority = try readOptional { reader throws(CodecError) in try reader.readPriority() }
        let before = try readOptional { reader throws(CodecError) in try reader.readDue() }
        let after = try readOptional { reader throws(CodecError) in try reader.readDue() }
        return Filter(text: text, done: done, tagsAnyOf: anyOf, tagsAllOf: allOf, priorityAtLeast: priority,
                      dueBefore: before, dueAfter: after)
    }

    mutating func readSources() throws(CodecError) -> Set<ListID> {
        Set(try readListIDs())
    }

    mutating func readSmartListRule() throws(CodecError) -> SmartListRule {
        let filter = try readFilter()
        let lists = try readOptional { reader throws(CodecError) in try reader.readSources() }
        return SmartListRule(filter: filter, lists: lists)
    }

    mutating func readSmartList() throws(CodecError) -> SmartList {
        let id = try readSmartListID()
        let name = try readString()
        let color = try readOptional { reader throws(CodecError) in try reader.readString() }
        let icon = try readOptional { reader throws(CodecError) in try reader.readString() }
        let rule = try readSmartListRule()
        return SmartList(id: id, name: name, color: color, icon: icon, rule: rule, position: try readPosition())
    }

    mutating func readSmartLists() throws(CodecError) -> [SmartList] {
        let count = try readCount(minimumSize: 12)
        var smartLists: [SmartList] = []
        smartLists.reserveCapacity(count)
        for _ in 0..<count { smartLists.append(try readSmartList()) }
        return smartLists
    }
}
