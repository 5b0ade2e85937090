/// A JSON member written as `null` when its value is nil, where synthesized coding would
/// leave the member out: the `--json` shapes in docs/INSPECTOR.md and docs/HISTORY.md list
/// such members with a null value. Read back, a missing member and `null` both give nil.
@propertyWrapper
struct NullWhenNil<Value> {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

extension NullWhenNil: Encodable where Value: Encodable {
    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if let value = wrappedValue { try c.encode(value) } else { try c.encodeNil() }
    }
}

extension NullWhenNil: Decodable where Value: Decodable {
    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A `NullWhenNil` member that may be missing, as an optional one may.
    func decode<Value: Decodable>(_ type: NullWhenNil<Value>.Type, forKey key: Key) throws -> NullWhenNil<Value> {
        NullWhenNil(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}
