// Validation of what an imported item keeps from its file: its uid and the extras (fields taskls has no place for).

extension Validation {
    /// An item's `uid`, when it has one: 1 to `Limits.uidCharacters` characters, no control characters.
    static func uid(_ uid: String?, field: String = "uid") throws(DomainError) {
        guard let uid else { return }
        guard !uid.isEmpty else { throw .invalidField(field: field, problem: "must not be empty") }
        if uid.utf8.count > Limits.uidCharacters, uid.count > Limits.uidCharacters {
            throw .invalidField(field: field, problem: "must be at most \(Limits.uidCharacters) characters")
        }
        guard !containsControl(uid, allowing: []) else {
            throw .invalidField(field: field, problem: "must not contain control characters")
        }
    }

    /// An item's extras: at most `Limits.extraCount`; each key `format:name` (a format of letters `a` to `z`, a
    /// name not empty), at most `Limits.extraKeyCharacters` characters without control characters; each value at
    /// most `Limits.notesCharacters` characters, without control characters but tab and line feed. Errors name the
    /// extra (`extras[2].key: must be format:name`).
    /// - Complexity: O(total length of the keys and values).
    static func extras(_ extras: [Extra], field: String = "extras") throws(DomainError) {
        guard extras.count <= Limits.extraCount else {
            throw .invalidField(field: field, problem: "must hold at most \(Limits.extraCount) extras")
        }
        for (index, extra) in extras.enumerated() {
            let key = "\(field)[\(index)].key"
            let format = extra.key.utf8.prefix { $0 != UInt8(ascii: ":") }
            guard !format.isEmpty, format.count < extra.key.utf8.count - 1,
                  format.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) else {
                throw .invalidField(field: key, problem: "must be format:name (a format of letters a to z, then a name)")
            }
            if extra.key.utf8.count > Limits.extraKeyCharacters, extra.key.count > Limits.extraKeyCharacters {
                throw .invalidField(field: key, problem: "must be at most \(Limits.extraKeyCharacters) characters")
            }
            guard !containsControl(extra.key, allowing: []) else {
                throw .invalidField(field: key, problem: "must not contain control characters")
            }
            let value = "\(field)[\(index)].value"
            if extra.value.utf8.count > Limits.notesCharacters, extra.value.count > Limits.notesCharacters {
                throw .invalidField(field: value, problem: "must be at most \(Limits.notesCharacters) characters")
            }
            guard !containsControl(extra.value, allowing: [0x09, 0x0A]) else {
                throw .invalidField(field: value, problem: "must not contain control characters other than tab and line feed")
            }
        }
    }

    /// Whether `text` holds a control character (U+0000 to U+001F, U+007F to U+009F) other than those `allowed`.
    private static func containsControl(_ text: String, allowing allowed: Set<UInt32>) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) && !allowed.contains(scalar.value)
        }
    }
}
