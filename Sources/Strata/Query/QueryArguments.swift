import Foundation
import StrataQuery
import StrataStorage

/// Turns the object arguments of a string query (`owner == %@`, `owner IN %@`) into what the
/// resolver compares links with: the class name and object key of each object, checked
/// against the Realm being queried.
enum QueryArguments {
    /// `args` with objects (and arrays, sets and collections of objects) replaced by
    /// `ObjectArgument`s, and enums and custom mapped values by their stored form; every
    /// other argument is passed on as it is.
    static func prepare(_ args: [Any], for core: RealmCore) -> [Any] {
        guard args.contains(where: { !ArgumentConversion.isCommon($0) }) else { return args }
        return args.map { arg in
            if ArgumentConversion.isCommon(arg) { return arg }
            if let object = arg as? ObjectBase { return argument(object, for: core) }
            if let collection = arg as? ObjectCollectionArgument { return collection.queryObjects.map { argument($0, for: core) } }
            if let mixed = arg as? AnyRealmValue { return argument(mixed, for: core) }
            if let mixed = arg as? [AnyRealmValue] { return mixed.map { argument($0, for: core) } }
            if let shape = arg as? GeoRegionConvertible { return shape.region }
            return MappedArguments.storedForm(arg)
        }
    }

    /// A mixed value as the argument of its kind: an object as an object, none as null.
    static func argument(_ mixed: AnyRealmValue, for core: RealmCore) -> Any {
        if case .object(let o) = mixed { return argument(o, for: core) }
        return mixed.held ?? NSNull()
    }

    /// One object as the resolver sees it: unmanaged and deleted objects have no key (they
    /// equal no stored object); a managed object of another file is flagged (an error).
    static func argument(_ object: ObjectBase, for core: RealmCore) -> ObjectArgument {
        let type = Swift.type(of: object) as ObjectBase.Type
        let name = object.binding?.info.name ?? (type._realmObjectName() ?? type.className())
        guard let objectCore = object.managingCore, object.binding != nil else {
            return ObjectArgument(className: name, key: nil)
        }
        if objectCore.file !== core.file { return ObjectArgument(className: name, key: nil, isFromOtherRealm: true) }
        if object.isInvalidated { return ObjectArgument(className: name, key: nil) }
        return ObjectArgument(className: name, key: object.objectKey)
    }
}

/// Collections of objects accepted as `IN %@` arguments.
protocol ObjectCollectionArgument {
    var queryObjects: [ObjectBase] { get }
}

extension Array: ObjectCollectionArgument where Element: ObjectBase {
    var queryObjects: [ObjectBase] { self }
}

extension Set: ObjectCollectionArgument where Element: ObjectBase {
    var queryObjects: [ObjectBase] { Array(self) }
}

extension Results: ObjectCollectionArgument where Element: ObjectBase {
    var queryObjects: [ObjectBase] { map { $0 as ObjectBase } }
}

extension LinkingObjects: ObjectCollectionArgument {
    var queryObjects: [ObjectBase] { map { $0 as ObjectBase } }
}

extension RealmCore: SchemaLookupSource {
    /// The classes queries may reach through relationships: the file's stored schema (with
    /// the classes of this process that are not stored yet), each model class's properties
    /// under their property names (`propertiesMapping`), and the inverse relationships
    /// (`LinkingObjects`) the model classes declare, which the file does not store.
    package func schemaLookup() -> SchemaLookup {
        SchemaLookup(declaredOver: reading { try transaction().schema.classes })
    }
}

extension SchemaLookup {
    /// The classes of `stored` (a file's schema), and every model class of the program
    /// (`ModelClass.declared`) under its property names, with the inverse relationships the
    /// model classes declare.
    init(declaredOver stored: [String: ClassSchema]) {
        var classes = stored
        var inverses: [String: [InverseRelationship]] = [:]
        for info in ModelClass.declared {
            classes[info.name] = info.publicSchema(classes[info.name] ?? info.schema)
            guard !info.linkingObjects.isEmpty else { continue }
            inverses[info.name] = info.linkingObjects.map {
                InverseRelationship(name: $0.name, originClass: $0.origin._realmObjectName() ?? $0.origin.className(),
                                    originProperty: $0.originProperty)
            }
        }
        self.init(classes: classes, inverses: inverses)
    }
}
