import Foundation

// Positions in a map (RealmSwift's `Map.Index`) and key-value coding reads.

extension Map {
    /// The position of an entry in the map's key order.
    public struct Index: Comparable, Sendable {
        /// The entry's place in key order, from 0.
        public let offset: Int

        /// Whether `lhs` comes before `rhs` in key order.
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.offset < rhs.offset }
    }

    /// The position of the first entry, in key order, whose value is `value`, or nil.
    public func index(of value: Value) -> Index? {
        values.firstIndex(of: value).map { Index(offset: $0) }
    }

    /// The entry at `position`. Traps when the position is past the last entry.
    public subscript(position: Index) -> SingleMapEntry<Key, Value> {
        let keys = keys
        precondition(position.offset >= 0 && position.offset < keys.count,
                     "Index \(position.offset) is out of bounds (must be less than \(keys.count))")
        let key = keys[position.offset]
        return SingleMapEntry(key: key, value: object(forKey: key)!)
    }

    /// The value under `key` as key-value coding hands it out (numbers as `NSNumber`, a mixed
    /// value as what it holds, nil as `NSNull`), or nil when there is none.
    public func value(forKey key: String) -> AnyObject? {
        object(forKey: Key._strataMapKey(key)).map(ObjectiveCBridging.object)
    }

    /// The value under the path's first key, or (`"key.name"`) the rest of the path read on
    /// the object under it, as key-value coding hands it out; nil when there is none.
    public func value(forKeyPath keyPath: String) -> AnyObject? {
        guard let dot = keyPath.firstIndex(of: ".") else { return value(forKey: keyPath) }
        guard let object = value(forKey: String(keyPath[..<dot])) as? ObjectBase else { return nil }
        return object.value(forKeyPath: String(keyPath[keyPath.index(after: dot)...])).map(ObjectiveCBridging.object)
    }
}
