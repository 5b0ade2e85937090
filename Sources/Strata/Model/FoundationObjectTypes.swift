import Foundation

// `NSString`, `NSData` and `NSDate` as the values of `@Persisted` properties, stored as a
// string, data and a date: the types RealmSwift's older models declare
// (`@objc dynamic var name: NSString?`), once their declarations say `@Persisted`.

extension NSString: _PersistableInsideOptional {
    public typealias PersistedType = NSString
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.string) }
    public static func _strataFrom(_ value: _StrataValue) -> Self { Self(string: String._strataFrom(value)) }
    public var _strataValue: _StrataValue { (self as String)._strataValue }
}

extension NSData: _PersistableInsideOptional {
    public typealias PersistedType = NSData
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.data) }
    /// An `NSData` (a property declared as a subclass of it cannot be read back).
    public static func _strataFrom(_ value: _StrataValue) -> Self { NSData(data: Data._strataFrom(value)) as! Self }
    public var _strataValue: _StrataValue { (self as Data)._strataValue }
}

extension NSDate: _PersistableInsideOptional, MinMaxType {
    public typealias PersistedType = NSDate
    public static var _strataTypeInfo: _StrataTypeInfo { .plain(.date) }
    public static func _strataFrom(_ value: _StrataValue) -> Self {
        Self(timeIntervalSinceReferenceDate: Date._strataFrom(value).timeIntervalSinceReferenceDate)
    }
    public var _strataValue: _StrataValue { Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate)._strataValue }
    /// A property declared as `@Persisted var date: NSDate` starts at the moment the object is
    /// made, as a `Date` does.
    public static var _strataDefault: Self { Self(timeIntervalSinceReferenceDate: Date().timeIntervalSinceReferenceDate) }
}
