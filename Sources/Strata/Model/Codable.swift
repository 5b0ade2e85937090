import Foundation
import StrataStorage

// `Codable` models (RealmSwift's rules): `final class Dog: Object, Codable { @Persisted var
// name: String }` gets its synthesised `init(from:)` and `encode(to:)`, which code each
// `@Persisted` property as its value under the property's name, lists and sets as arrays,
// maps as objects with string keys. A missing key of an optional property, list, set or map
// decodes as nil or empty; a missing key of any other property is a `DecodingError`.
// Only unmanaged objects encode: a managed object's properties live in the Realm, and
// `encode(to:)` throws `EncodingError.invalidValue` for them (declare your own `encode(to:)`
// to encode managed objects).

extension Persisted: Decodable where Value: Decodable {
    /// The property holding the decoded value.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// Encodes the value of an unmanaged object's property; throws for a managed one.
    public func encode(to encoder: any Encoder) throws {
        guard managedIndex < 0 else { throw Self.managedEncodingError(encoder) }
        var container = encoder.singleValueContainer()
        try container.encode(value ?? Value._strataDefault)
    }

    private static func managedEncodingError(_ encoder: any Encoder) -> EncodingError {
        EncodingError.invalidValue(Value.self, EncodingError.Context(
            codingPath: encoder.codingPath,
            debugDescription: "Only unmanaged Realm objects can be encoded using automatic Codable synthesis. You must explicitly define encode(to:) on your model class to support managed Realm objects."))
    }
}

extension List: Decodable where Element: Decodable {
    /// An unmanaged list of the decoded array's elements.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        append(objectsIn: try decoder.singleValueContainer().decode([Element].self))
    }
}

extension List: Encodable where Element: Encodable {
    /// Encodes the elements as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Array(self))
    }
}

extension Results: Encodable where Element: Encodable {
    /// Encodes the results as an array of their elements (objects encode through their own
    /// `encode(to:)`: the synthesised one refuses managed objects).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension AnyRealmCollection: Encodable where Element: Encodable {
    /// Encodes the collection as an array of its elements.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension MutableSet: Decodable where Element: Decodable {
    /// An unmanaged set of the decoded array's elements (a repeated one is kept once).
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        for element in try decoder.singleValueContainer().decode([Element].self) { insert(element) }
    }
}

extension MutableSet: Encodable where Element: Encodable {
    /// Encodes the members as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Array(self))
    }
}

extension Map: Decodable where Key == String, Value: Decodable {
    /// An unmanaged map of the decoded object's entries. A key the map cannot hold (one with
    /// "." or starting with "$") is a `DecodingError`.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        for (key, value) in try container.decode([String: Value].self) {
            do {
                try translatingErrors { try StrataStorage.ListStore.checkMapKey(key) }
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
            }
            updateValue(value, forKey: key)
        }
    }
}

extension Map: Encodable where Key == String, Value: Encodable {
    /// Encodes the entries as an object with string keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: zip(keys, values)))
    }
}

extension RealmProperty: Decodable where Value: Decodable {
    /// A property holding the decoded value.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        value = try decoder.singleValueContainer().decode(Value.self)
    }
}

extension RealmProperty: Encodable where Value: Encodable {
    /// Encodes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

@available(*, deprecated, message: "RealmOptional<T> has been deprecated, use RealmProperty<T?> instead.")
extension RealmOptional: Decodable where Value: Decodable {
    /// A property holding the decoded value, or nil for `null`.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        value = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

@available(*, deprecated, message: "RealmOptional<T> has been deprecated, use RealmProperty<T?> instead.")
extension RealmOptional: Encodable where Value: Encodable {
    /// Encodes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// The decoding of properties whose key may be missing: the synthesised `init(from:)` of a
/// model calls these rather than the general `decode(_:forKey:)`.
extension KeyedDecodingContainer {
    /// An optional property: nil when the key is missing.
    public func decode<T: Decodable & ExpressibleByNilLiteral>(_ type: Persisted<T>.Type, forKey key: Key) throws -> Persisted<T> {
        try decodeIfPresent(type, forKey: key) ?? Persisted(wrappedValue: nil)
    }

    /// A list property: empty when the key is missing.
    public func decode<T: Decodable>(_ type: Persisted<List<T>>.Type, forKey key: Key) throws -> Persisted<List<T>> {
        try decodeIfPresent(type, forKey: key) ?? Persisted(wrappedValue: List())
    }

    /// A set property: empty when the key is missing.
    public func decode<T: Decodable>(_ type: Persisted<MutableSet<T>>.Type, forKey key: Key) throws -> Persisted<MutableSet<T>> {
        try decodeIfPresent(type, forKey: key) ?? Persisted(wrappedValue: MutableSet())
    }

    /// A map property: empty when the key is missing.
    public func decode<T: Decodable>(_ type: Persisted<Map<String, T>>.Type, forKey key: Key) throws -> Persisted<Map<String, T>> {
        try decodeIfPresent(type, forKey: key) ?? Persisted(wrappedValue: Map())
    }

    /// A list declared without `@Persisted`: empty when the key is missing.
    public func decode<T: Decodable>(_ type: List<T>.Type, forKey key: Key) throws -> List<T> {
        try decodeIfPresent(type, forKey: key) ?? List()
    }

    /// A set declared without `@Persisted`: empty when the key is missing.
    public func decode<T: Decodable>(_ type: MutableSet<T>.Type, forKey key: Key) throws -> MutableSet<T> {
        try decodeIfPresent(type, forKey: key) ?? MutableSet()
    }

    /// A map declared without `@Persisted`: empty when the key is missing.
    public func decode<T: Decodable>(_ type: Map<String, T>.Type, forKey key: Key) throws -> Map<String, T> {
        try decodeIfPresent(type, forKey: key) ?? Map()
    }

    /// A `RealmProperty` of an optional value: nil when the key is missing.
    public func decode<T: Decodable & ExpressibleByNilLiteral>(_ type: RealmProperty<T>.Type, forKey key: Key) throws -> RealmProperty<T> {
        try decodeIfPresent(type, forKey: key) ?? RealmProperty()
    }

    /// A `RealmOptional`: nil when the key is missing.
    @available(*, deprecated, message: "RealmOptional<T> has been deprecated, use RealmProperty<T?> instead.")
    public func decode<T: Decodable>(_ type: RealmOptional<T>.Type, forKey key: Key) throws -> RealmOptional<T> {
        try decodeIfPresent(type, forKey: key) ?? RealmOptional()
    }
}
