/// A machine-readable description of each protocol type's JSON, for generating `protocol.json`
/// and for the decoders, which accept exactly the members an object's schema lists.

/// The shape of one protocol type's JSON, with the documentation of each part.
public struct TypeSchema: Sendable, Hashable {
    /// The type's name (`ItemsCreate`, `Sort`), unique in `ProtocolCatalog.schemas`.
    public let name: String
    /// What the type is, in a sentence or two.
    public let doc: String
    /// The JSON it is written as.
    public let shape: Shape
    /// The names of the members of an object schema (none for other shapes): what its decoder accepts.
    public let fieldNames: Set<String>

    /// Makes a schema.
    public init(name: String, doc: String, shape: Shape) {
        self.name = name
        self.doc = doc
        self.shape = shape
        if case .object(let object) = shape { fieldNames = Set(object.fields.map(\.name)) } else { fieldNames = [] }
    }

    /// The JSON a type is written as.
    public indirect enum Shape: Sendable, Hashable {
        /// An object with these members.
        case object(ObjectShape)
        /// A string naming one of these cases.
        case enumeration([EnumCase])
        /// One of several shapes (each an object), told apart as the discriminator says.
        case alternatives(Discriminator, [TypeSchema])
        /// A string in a fixed format, described in words (an id's spelling).
        case string(format: String)
        /// A value of this type (`ProgressToken`: an integer or a string).
        case value(TypeReference)
        /// The JSON `null`.
        case null
    }

    /// How the shapes of `Shape.alternatives` are told apart.
    public enum Discriminator: Sendable, Hashable {
        /// By the value of this member, a constant string in each shape (`kind` of a row).
        case value(of: String)
        /// By whether this member is present: the first shape when it is, the second when it is not
        /// (`view` of `items/move`).
        case presence(of: String)
    }

    /// An object's members and the rules between them.
    public struct ObjectShape: Sendable, Hashable {
        /// The members, in the order the server writes them.
        public var fields: [FieldSchema]
        /// Whether members not in `fields` are ignored (LSP's `InitializeParams`) rather than refused.
        public var ignoresUnknownFields: Bool
        /// Groups of members of which exactly one must be present (`list` or `group`, `id` or `ids`).
        public var exactlyOneOf: [[String]]

        /// Makes an object shape.
        public init(fields: [FieldSchema], ignoresUnknownFields: Bool = false, exactlyOneOf: [[String]] = []) {
            self.fields = fields
            self.ignoresUnknownFields = ignoresUnknownFields
            self.exactlyOneOf = exactlyOneOf
        }
    }

    /// One case of an enumeration: its name on the wire and what it means.
    public struct EnumCase: Sendable, Hashable {
        /// The name on the wire.
        public var name: String
        /// What the case means.
        public var doc: String

        /// Makes a case.
        public init(_ name: String, _ doc: String) {
            self.name = name
            self.doc = doc
        }
    }

    /// An object schema.
    public static func object(_ name: String, doc: String, _ fields: [FieldSchema], ignoresUnknownFields: Bool = false,
                              exactlyOneOf: [[String]] = []) -> TypeSchema {
        TypeSchema(name: name, doc: doc, shape: .object(ObjectShape(
            fields: fields, ignoresUnknownFields: ignoresUnknownFields, exactlyOneOf: exactlyOneOf)))
    }

    /// An enumeration schema.
    public static func enumeration(_ name: String, doc: String, _ cases: [EnumCase]) -> TypeSchema {
        TypeSchema(name: name, doc: doc, shape: .enumeration(cases))
    }

    /// The members of an object schema (none for other shapes).
    public var fields: [FieldSchema] {
        if case .object(let object) = shape { return object.fields }
        return []
    }

    /// A reference to this type, for the fields of other types.
    public var reference: TypeReference { .named(name) }
}

/// One member of an object.
public struct FieldSchema: Sendable, Hashable {
    /// The member's name.
    public var name: String
    /// The type of its value.
    public var type: TypeReference
    /// Whether the member must be present.
    public var required: Bool
    /// Whether `null` is accepted (and what it means is in `doc`); everywhere else `null` is refused.
    public var nullable: Bool
    /// What the member means, its default when absent, and its limits.
    public var doc: String

    /// Makes a member.
    public init(_ name: String, _ type: TypeReference, required: Bool, nullable: Bool = false, doc: String) {
        self.name = name
        self.type = type
        self.required = required
        self.nullable = nullable
        self.doc = doc
    }

    /// A member that must be present (and, unless `nullable`, must not be `null`).
    public static func required(_ name: String, _ type: TypeReference, nullable: Bool = false, _ doc: String) -> FieldSchema {
        FieldSchema(name, type, required: true, nullable: nullable, doc: doc)
    }

    /// A member that may be absent (and, unless `nullable`, must not be `null`).
    public static func optional(_ name: String, _ type: TypeReference, nullable: Bool = false, _ doc: String) -> FieldSchema {
        FieldSchema(name, type, required: false, nullable: nullable, doc: doc)
    }
}

/// The type of a member's value.
public indirect enum TypeReference: Sendable, Hashable {
    /// A JSON string.
    case string
    /// A JSON integer (within -2^63 ..< 2^63).
    case integer
    /// A JSON number.
    case number
    /// `true` or `false`.
    case boolean
    /// Any JSON value.
    case any
    /// This exact string (the discriminator of an alternative).
    case constant(String)
    /// An array of values of this type.
    case array(TypeReference)
    /// One of these types.
    case oneOf([TypeReference])
    /// The type with this schema name (`ProtocolCatalog.schemas` holds it).
    case named(String)
}
