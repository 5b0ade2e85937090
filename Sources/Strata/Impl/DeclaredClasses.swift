import CStrataRuntime

/// The model classes the program declares, found in the Swift runtime's type metadata records
/// of every loaded image (on Linux there is no Objective-C class list to ask): RealmSwift's
/// default schema is made of them.
enum DeclaredClasses {
    /// Every non-generic subclass of `Object` (embedded ones too) in the loaded images, except
    /// Strata's own and those whose `_realmIgnoreClass()` is true, in image order.
    static let all: [ObjectBase.Type] = {
        let found = Found()
        let status = strata_enumerate_classes({ metadata, context in
            guard let metadata, let context,
                  let type = unsafeBitCast(metadata, to: AnyClass.self) as? Object.Type,
                  type != Object.self, type != EmbeddedObject.self, type != DynamicObject.self,
                  !type._realmIgnoreClass() else { return }
            Unmanaged<Found>.fromOpaque(context).takeUnretainedValue().types.append(type)
        }, Unmanaged.passUnretained(found).toOpaque())
        // A partial list would leave classes out of every default schema without a word.
        guard status == 0 else { fatalError("Out of memory while listing the program's model classes") }
        return found.types
    }()

    /// The classes of `all` grouped by schema name, in order of first appearance: most
    /// groups hold one class; two classes declared under one name (with `_realmObjectName`)
    /// are twins when they store alike, or shapes of one class at different times.
    static let byName: [[ObjectBase.Type]] = {
        var groups: [[ObjectBase.Type]] = []
        var groupByName: [String: Int] = [:]
        for type in all {
            let name = type._realmObjectName() ?? type.className()
            if let index = groupByName[name] {
                groups[index].append(type)
            } else {
                groupByName[name] = groups.count
                groups.append([type])
            }
        }
        return groups
    }()

    /// What `strata_enumerate_classes` collects into.
    private final class Found {
        var types: [ObjectBase.Type] = []
    }
}
