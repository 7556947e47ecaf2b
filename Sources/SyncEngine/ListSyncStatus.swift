// ListSyncStatus: what sync keeps of one list between syncs — its calendar, the sync token, and per task the href,
// entity tag and the version both sides agreed on (as the VTODO text sent or read, the next merge's base).

import Domain
import Sync
import Wire

/// What one list's sync remembers between syncs.
public struct ListSyncStatus: Hashable, Sendable {
    /// The calendar collection the list is synced with (canonical href).
    public var calendar: String
    /// The calendar's sync token as of the last listing; nil before the first sync, or when the next sync must list
    /// every member (a token the server refused, a uid found at an href sync did not know).
    public var token: String?
    /// The tasks both sides held after the last sync, by uid.
    public var records: [String: SyncRecord]
    /// The list's and the calendar's names and colours after the last sync; nil before the first.
    public var properties: ListPropertiesBase?

    public init(calendar: String, token: String? = nil, records: [String: SyncRecord] = [:], properties: ListPropertiesBase? = nil) {
        self.calendar = calendar
        self.token = token
        self.records = records
        self.properties = properties
    }

    /// The status as JSON, each record's base as its calendar object's text.
    /// - Complexity: O(records × the size of a task).
    public func json(_ text: TaskText, now: Timestamp) -> JSON {
        let records = self.records.values.sorted { $0.uid < $1.uid }.map { record -> JSON in
            ["uid": .string(record.uid), "href": .string(record.href), "etag": .string(record.etag),
             "base": .string(text.text(of: record.base, now: now))]
        }
        func side(_ values: ListProperties) -> JSON {
            ["name": values.name.map(JSON.string) ?? .null, "color": values.color.map(JSON.string) ?? .null]
        }
        let kept: JSON = properties.map { ["list": side($0.local), "calendar": side($0.remote)] } ?? .null
        return ["calendar": .string(calendar), "token": token.map(JSON.string) ?? .null, "records": .array(records),
                "properties": kept]
    }

    /// Reads what `json` wrote. A record whose base cannot be read is left out (the next sync treats its task as new
    /// on both sides and merges them with no base).
    public init(json: JSON, _ text: TaskText) throws(SyncError) {
        guard case .string(let calendar)? = json["calendar"] else { throw SyncError("calendar: a string is wanted") }
        var token: String?
        switch json["token"] {
        case .string(let value)?: token = value
        case .null?, nil: token = nil
        default: throw SyncError("token: a string or null is wanted")
        }
        guard case .array(let entries)? = json["records"] else { throw SyncError("records: an array is wanted") }
        var records: [String: SyncRecord] = [:]
        for (index, entry) in entries.enumerated() {
            guard case .string(let uid)? = entry["uid"], case .string(let href)? = entry["href"],
                  case .string(let etag)? = entry["etag"], case .string(let base)? = entry["base"] else {
                throw SyncError("records[\(index)]: uid, href, etag and base are wanted, each a string")
            }
            guard let task = text.task(in: base, href: href) else { continue }
            records[uid] = SyncRecord(uid: uid, href: href, etag: etag, base: task)
        }
        var properties: ListPropertiesBase?
        if let base = json["properties"], base != .null {
            func side(_ key: String) throws(SyncError) -> ListProperties {
                func text(_ field: String) throws(SyncError) -> String? {
                    switch base[key]?[field] {
                    case .string(let value)?: return value
                    case .null?, nil: return nil
                    default: throw SyncError("properties.\(key).\(field): a string or null is wanted")
                    }
                }
                return ListProperties(name: try text("name"), color: try text("color"))
            }
            properties = ListPropertiesBase(local: try side("list"), remote: try side("calendar"))
        }
        self.init(calendar: calendar, token: token, records: records, properties: properties)
    }
}

/// Why sync cannot go on (settings or a status that cannot be read, no account, a password that cannot be had), as
/// the user reads it.
public struct SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
