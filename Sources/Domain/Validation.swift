// Validation: checks every field against `Limits` and normalizes tags, before anything changes.

enum Validation {
    static func title(_ title: String) throws(DomainError) {
        try text(title, field: "title", limit: Limits.titleCharacters, required: true)
    }

    /// `title(_:)` of a stored title, read in place: a title of at most `Limits.titleCharacters` bytes with an
    /// ASCII byte other than white space passes without being made a `String`.
    /// - Complexity: O(length).
    static func title(_ title: TitleText) throws(DomainError) {
        let passes = title.withUTF8 { bytes in
            bytes.count <= Limits.titleCharacters && bytes.contains { $0 < 0x80 && !($0 == 0x20 || (0x09...0x0D).contains($0)) }
        }
        if !passes { try Validation.title(title.string) }
    }

    static func notes(_ notes: String) throws(DomainError) {
        try text(notes, field: "notes", limit: Limits.notesCharacters, required: false)
    }

    static func listName(_ name: String) throws(DomainError) {
        try text(name, field: "name", limit: Limits.listNameCharacters, required: true)
    }

    static func color(_ color: String?) throws(DomainError) {
        if let color { try text(color, field: "color", limit: Limits.colorCharacters, required: true) }
    }

    static func icon(_ icon: String?) throws(DomainError) {
        if let icon { try text(icon, field: "icon", limit: Limits.iconCharacters, required: true) }
    }

    /// The tags trimmed of whitespace, duplicates dropped (first kept), order kept.
    static func tags(_ tags: [String]) throws(DomainError) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for tag in tags {
            let trimmed = trim(tag)
            guard !trimmed.isEmpty else {
                let what = tag.isEmpty ? "an empty tag" : "a tag that is only white space"
                throw .invalidField(field: "tags", problem: "must not contain \(what)")
            }
            guard trimmed.count <= Limits.tagCharacters else {
                throw .invalidField(field: "tags", problem: "a tag must be at most \(Limits.tagCharacters) characters")
            }
            if seen.insert(trimmed).inserted { result.append(trimmed) }
        }
        guard result.count <= Limits.tagCount else {
            throw .invalidField(field: "tags", problem: "must hold at most \(Limits.tagCount) tags")
        }
        return result
    }

    /// A due built without parsing (a date-time case made in code) must still be in range.
    static func due(_ due: Due?) throws(DomainError) {
        guard case .dateTime(let instant, let offset)? = due else { return }
        let earliest: Int64 = -62_135_596_800_000   // 0001-01-01T00:00:00Z
        let latest: Int64 = 253_402_300_799_999     // 9999-12-31T23:59:59.999Z
        guard abs(offset) <= Due.maximumOffsetSeconds, (earliest...latest).contains(instant.milliseconds) else {
            throw .invalidField(field: "due", problem: "must be between years 1 and 9999 with a UTC offset of at most 18 hours")
        }
    }

    static func fields(_ fields: ItemFields) throws(DomainError) -> ItemFields {
        try title(fields.title)
        try notes(fields.notes)
        try due(fields.due)
        try extras(fields.extras)
        var result = fields
        result.tags = try tags(fields.tags)
        result.alerts = try alerts(fields.alerts)
        return result
    }

    static func patch(_ patch: ItemPatch) throws(DomainError) -> ItemPatch {
        if let value = patch.title { try title(value) }
        if let value = patch.notes { try notes(value) }
        try due(patch.due?.value)
        var result = patch
        if let value = patch.tags { result.tags = try tags(value) }
        if let value = patch.alerts { result.alerts = try alerts(value) }
        return result
    }

    /// An item with a repeat rule must have a due: refused with `repeatWithoutDue` naming the item.
    static func repeats(_ item: Item) throws(DomainError) {
        guard item.repeatRule == nil || item.due != nil else {
            throw .refused(reason: "repeatWithoutDue", message: "item \(item.id): a repeating item needs a due; give due, or clear repeat")
        }
    }

    static func listFields(_ fields: ListFields) throws(DomainError) {
        try listName(fields.name)
        try color(fields.color)
        try icon(fields.icon)
    }

    static func listPatch(_ patch: ListPatch) throws(DomainError) {
        if let name = patch.name { try listName(name) }
        try color(patch.color?.value)
        try icon(patch.icon?.value)
    }

    static func identifiers<ID: Hashable>(_ ids: [ID], field: String) throws(DomainError) -> [ID] {
        guard !ids.isEmpty else { throw .invalidField(field: field, problem: "must name at least one id") }
        guard ids.count <= Limits.idsPerMutation else {
            throw .invalidField(field: field, problem: "must name at most \(Limits.idsPerMutation) ids")
        }
        guard ids.count > 1 else { return ids }
        var seen = Set<ID>()
        return ids.filter { seen.insert($0).inserted }
    }

    private static func text(_ value: String, field: String, limit: Int, required: Bool) throws(DomainError) {
        if required, value.isEmpty { throw .invalidField(field: field, problem: "must not be empty") }
        if required, value.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            throw .invalidField(field: field, problem: "must not be only white space")
        }
        if value.utf8.count > limit, value.count > limit {
            throw .invalidField(field: field, problem: "must be at most \(limit) characters")
        }
    }

    /// Whether two strings are spelt alike, code point for code point. Swift's `==` is canonical
    /// equivalence ("é" precomposed equals "e" and a combining accent); text is stored as given,
    /// so a new spelling is a change (protocol.md, "Spelling").
    static func spelledAlike(_ left: String, _ right: String) -> Bool {
        left.unicodeScalars.elementsEqual(right.unicodeScalars)
    }

    /// Whether two items' texts (title, notes, tags) are spelt alike; see `spelledAlike(_:_:)` (titles compare
    /// their bytes, which is the same for valid UTF-8, without making strings).
    static func spelledAlike(_ left: Item, _ right: Item) -> Bool {
        left.titleText == right.titleText && spelledAlike(left.notes, right.notes)
            && left.tags.elementsEqual(right.tags, by: spelledAlike)
    }

    /// Whether two lists' texts (name, color, icon) are spelt alike; see `spelledAlike(_:_:)`.
    static func spelledAlike(_ left: TaskList, _ right: TaskList) -> Bool {
        func alike(_ left: String?, _ right: String?) -> Bool {
            switch (left, right) {
            case (let left?, let right?): spelledAlike(left, right)
            default: left == nil && right == nil
            }
        }
        return spelledAlike(left.name, right.name) && alike(left.color, right.color) && alike(left.icon, right.icon)
    }

    private static func trim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
