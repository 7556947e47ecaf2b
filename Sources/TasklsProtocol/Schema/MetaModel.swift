/// The protocol as one JSON document in the spirit of LSP's `metaModel.json`: what `protocol.json` holds,
/// generated from the catalog so it cannot drift from the types.

import Wire

extension ProtocolCatalog {
    /// The whole protocol as data, in a stable order (the catalog's):
    ///
    /// - `metaData`: `protocolVersion`, and the base protocol it is framed in;
    /// - `requests`: `method`, `messageDirection` (`clientToServer`), `lsp` (LSP's own), `params` and `result`
    ///   (types), `errorCodes` and `reasons` (what it can be refused with, where known);
    /// - `notifications`: `method`, `messageDirection`, `lsp`, `params`;
    /// - `requestMembers`: the members every request accepts whatever its method (`workDoneToken`, ...);
    /// - `structures` (objects: `properties` with `name`, `type`, `optional`, `nullable`, `documentation`),
    ///   `enumerations` (string values), `alternatives` (one of several structures, told apart by a
    ///   `discriminator`), `typeAliases` (strings in a format, `null`, other values);
    /// - `errorCodes` (`code`, `name`, `documentation`) and `reasons` (`name`, `documentation`, `data`).
    ///
    /// A type is `{"kind": "base" | "reference" | "array" | "or" | "stringLiteral", ...}` as in LSP's meta model.
    public static func metaModel() -> JSON {
        var structures: [JSON] = []
        var enumerations: [JSON] = []
        var alternatives: [JSON] = []
        var aliases: [JSON] = []
        var written = Set(schemas.map(\.name))
        func describe(_ schema: TypeSchema) {
            switch schema.shape {
            case .object(let object):
                structures.append(structure(schema.name, doc: schema.doc, object))
            case .enumeration(let cases):
                enumerations.append([
                    "name": .string(schema.name),
                    "type": base("string"),
                    "values": .array(cases.map { ["name": .string($0.name), "value": .string($0.name), "documentation": .string($0.doc)] }),
                    "documentation": .string(schema.doc),
                ])
            case .alternatives(let discriminator, let shapes):
                alternatives.append([
                    "name": .string(schema.name),
                    "discriminator": discriminatorJSON(discriminator),
                    "items": .array(shapes.map { reference($0.name) }),
                    "documentation": .string(schema.doc),
                ])
                // A shape the catalog does not name on its own is described here, once.
                for shape in shapes where written.insert(shape.name).inserted { describe(shape) }
            case .string(let format):
                aliases.append(["name": .string(schema.name), "type": base("string"), "format": .string(format),
                                "documentation": .string(schema.doc)])
            case .value(let type):
                aliases.append(["name": .string(schema.name), "type": typeJSON(type), "documentation": .string(schema.doc)])
            case .null:
                aliases.append(["name": .string(schema.name), "type": base("null"), "documentation": .string(schema.doc)])
            }
        }
        for schema in schemas { describe(schema) }
        return [
            "metaData": ["protocolVersion": .integer(Int64(protocolVersion)),
                         "baseProtocol": "JSON-RPC 2.0, framed as the Language Server Protocol 3.17 base protocol"],
            "requests": .array(requests.map(requestJSON)),
            "notifications": .array(
                clientNotifications.map { notificationJSON($0, direction: "clientToServer") }
                    + (serverNotifications + lspServerNotifications).map { notificationJSON($0, direction: "serverToClient") }),
            "requestMembers": .array(genericRequestMembers.map(property)),
            "structures": .array(structures),
            "enumerations": .array(enumerations),
            "alternatives": .array(alternatives),
            "typeAliases": .array(aliases),
            "errorCodes": .array(errorCodes.map {
                ["code": .integer(Int64($0.code.rawValue)), "name": .string($0.name), "documentation": .string($0.doc)]
            }),
            "reasons": .array(reasons.map {
                ["name": .string($0.name), "documentation": .string($0.doc), "data": .array($0.data.map(JSON.string))]
            }),
        ]
    }

    /// `protocol.json`'s text: `metaModel()` pretty-printed with two spaces, ending with a newline.
    public static func protocolJSON() -> String { PrettyJSON.text(metaModel()) + "\n" }

    /// The members LSP lets every request carry (`WorkDoneProgressParams`, `PartialResultParams`), taken out of
    /// the params before the method's own are read.
    public static let genericRequestMembers: [FieldSchema] = [
        .optional("workDoneToken", ProgressToken.schema.reference,
                  "A token to report the request's work on with $/progress (when the client has the capability)."),
        .optional("partialResultToken", ProgressToken.schema.reference,
                  "Accepted and never used: taskls answers every request whole."),
    ]

    private static func requestJSON(_ request: any RequestMessage.Type) -> JSON {
        var json: JSONObject = [
            "method": .string(request.method),
            "messageDirection": "clientToServer",
            "lsp": .bool(lspMethods.contains(request.method)),
            "params": reference(request.schema.name),
            "result": reference(request.resultSchema.name),
        ]
        if let failures = failures(of: request.method) {
            json["errorCodes"] = .array(failures.codes.map { .integer(Int64($0.rawValue)) })
            json["reasons"] = .array(failures.reasons.map(JSON.string))
        }
        return .object(json)
    }

    private static func notificationJSON(_ notification: any NotificationMessage.Type, direction: String) -> JSON {
        [
            "method": .string(notification.method),
            "messageDirection": .string(direction),
            "lsp": .bool(lspMethods.contains(notification.method)),
            "params": reference(notification.schema.name),
        ]
    }
}

private func structure(_ name: String, doc: String, _ object: TypeSchema.ObjectShape) -> JSON {
    var json: JSONObject = ["name": .string(name), "properties": .array(object.fields.map(property))]
    if object.ignoresUnknownFields { json["ignoresUnknownProperties"] = true }
    if !object.exactlyOneOf.isEmpty {
        json["exactlyOneOf"] = .array(object.exactlyOneOf.map { .array($0.map(JSON.string)) })
    }
    json["documentation"] = .string(doc)
    return .object(json)
}

private func property(_ field: FieldSchema) -> JSON {
    [
        "name": .string(field.name),
        "type": typeJSON(field.type),
        "optional": .bool(!field.required),
        "nullable": .bool(field.nullable),
        "documentation": .string(field.doc),
    ]
}

private func typeJSON(_ type: TypeReference) -> JSON {
    switch type {
    case .string: base("string")
    case .integer: base("integer")
    case .number: base("decimal")
    case .boolean: base("boolean")
    case .any: base("any")
    case .constant(let value): ["kind": "stringLiteral", "value": .string(value)]
    case .array(let element): ["kind": "array", "element": typeJSON(element)]
    case .oneOf(let choices): ["kind": "or", "items": .array(choices.map(typeJSON))]
    case .named(let name): reference(name)
    }
}

private func discriminatorJSON(_ discriminator: TypeSchema.Discriminator) -> JSON {
    switch discriminator {
    case .value(let member):
        ["kind": "value", "property": .string(member),
         "documentation": .string("The item whose \(member) is the constant the value's \(member) is.")]
    case .presence(let member):
        ["kind": "presence", "property": .string(member),
         "documentation": .string("The first item when \(member) is present, the second when it is absent.")]
    }
}

private func base(_ name: String) -> JSON { ["kind": "base", "name": .string(name)] }

private func reference(_ name: String) -> JSON { ["kind": "reference", "name": .string(name)] }
