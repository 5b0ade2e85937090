import Foundation
import StrataQuery
import StrataStorage

/// A query on the values of a list, set or map of values (`tags.filter("SELF BEGINSWITH 's'")`,
/// RealmSwift's form): the text is resolved against a class of one property, `SELF`, of the
/// collection's element type, and each value is tested as the one slot of a row, with the
/// same evaluator object queries use.
struct ValueFilter: Equatable, Sendable {
    /// The query text and its arguments as given, which make two filters the same.
    let text: String
    private let argumentsDescription: String
    private let query: CompiledQuery
    private let mixed: MixedSlots

    /// The filter `text` with `arguments` on values of collection property `element`.
    /// Throws `.invalidInput` for a query that does not parse or resolve against `SELF`, or
    /// that sorts or limits (sort values with `sorted(ascending:)`).
    init(_ text: String, _ arguments: [Any], elementOf element: PropertySchema, core: RealmCore) throws {
        let schema = Self.schema(of: element)
        do {
            query = try compileQuery(text, arguments: QueryArguments.prepare(arguments, for: core), schema: schema)
        } catch {
            throw Realm.Error(.invalidInput, "\(error.description) (a query on a collection of values names its value SELF)")
        }
        guard query.suffixes.isEmpty else {
            throw Realm.Error(.invalidInput, "SORT, DISTINCT and LIMIT do not apply to a collection of values: use sorted(ascending:) and distinct()")
        }
        self.text = text
        argumentsDescription = "\(arguments)"
        mixed = MixedSlots(schema)
    }

    /// A class whose one property, `SELF`, has the element type of collection `property`.
    private static func schema(of property: PropertySchema) -> ClassSchema {
        ClassSchema(name: "SELF", properties: [
            PropertySchema(name: "SELF", type: property.type, isOptional: property.isOptional, isIndexed: false,
                           isPrimaryKey: false, id: 0, intWidth: property.intWidth),
        ])
    }

    /// Whether `value` matches.
    func matches(_ value: StrataStorage.Value) -> Bool {
        RowEncoder.encode([value], mixed).withUnsafeBytes { bytes in
            RowView(bytes).map(query.matches) ?? false
        }
    }

    static func == (a: ValueFilter, b: ValueFilter) -> Bool {
        a.text == b.text && a.argumentsDescription == b.argumentsDescription && a.query.schema == b.query.schema
    }
}
