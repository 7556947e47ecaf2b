// ListPropertiesMerge: a shared list's name and colour against its calendar's (`displayname`, `calendar-color`) —
// a change on one side since the last sync reaches the other.

/// A list's name and colour as one side holds them (a colour as `#RRGGBB`; nil: none, or a calendar without a name).
public struct ListProperties: Hashable, Sendable {
    public var name: String?
    public var color: String?

    public init(name: String?, color: String?) {
        self.name = name
        self.color = color
    }
}

/// What each side held after the last sync: the base the next sync compares with.
public struct ListPropertiesBase: Hashable, Sendable {
    /// The list's.
    public var local: ListProperties
    /// The calendar's.
    public var remote: ListProperties

    public init(local: ListProperties, remote: ListProperties) {
        self.local = local
        self.remote = remote
    }
}

/// What one sync does with a list's name and colour.
public struct ListPropertiesChange: Hashable, Sendable {
    /// The values to give the list (nil: leave it).
    public var local: ListProperties?
    /// The values to give the calendar (nil: leave it).
    public var remote: ListProperties?
    /// The base to keep once both are done.
    public var base: ListPropertiesBase
}

/// Merges a list's name and colour with its calendar's, each on its own:
///
/// - With no base (the first sync, or a status kept before taskls synced them), nothing changes: a list may be shared
///   with a calendar of another name on purpose. What each side holds becomes the base.
/// - A property changed on the server since the base is given to the list (when both sides changed it, the server's
///   stays: it is what every other device shows).
/// - A property changed only here is given to the calendar.
/// - A calendar without a name never takes the name away from the list.
public enum ListPropertiesMerge {
    public static func merge(base: ListPropertiesBase?, local: ListProperties, remote: ListProperties) -> ListPropertiesChange {
        guard let base else {
            return ListPropertiesChange(local: nil, remote: nil, base: ListPropertiesBase(local: local, remote: remote))
        }
        var newLocal = local
        var newRemote = remote
        func part(_ value: WritableKeyPath<ListProperties, String?>, keepsEmpty: Bool) {
            let changedThere = remote[keyPath: value] != base.remote[keyPath: value]
            let changedHere = local[keyPath: value] != base.local[keyPath: value]
            if changedThere, remote[keyPath: value] != nil || !keepsEmpty {
                newLocal[keyPath: value] = remote[keyPath: value]
            } else if changedHere {
                newRemote[keyPath: value] = local[keyPath: value]
            }
        }
        part(\.name, keepsEmpty: true)
        part(\.color, keepsEmpty: false)
        return ListPropertiesChange(local: newLocal == local ? nil : newLocal, remote: newRemote == remote ? nil : newRemote,
                                    base: ListPropertiesBase(local: newLocal, remote: newRemote))
    }
}
