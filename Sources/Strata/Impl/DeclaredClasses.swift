import CStrataRuntime

/// The model classes the program declares, found in the Swift runtime's type metadata records
/// of every loaded image (on Linux there is no Objective-C class list to ask): RealmSwift's
/// default schema is made of them.
enum DeclaredClasses {
    /// Every non-generic subclass of `Object` (embedded ones too) in the loaded images, except
    /// Strata's own and those whose `_realmIgnoreClass()` is true, in image order.
    static let all: [ObjectBase.Type] = {
        let found = Found()
        strata_enumerate_classes({ metadata, context in
            guard let metadata, let context,
                  let type = unsafeBitCast(metadata, to: AnyClass.self) as? Object.Type,
                  type != Object.self, type != EmbeddedObject.self, type != DynamicObject.self,
                  !type._realmIgnoreClass() else { return }
            Unmanaged<Found>.fromOpaque(context).takeUnretainedValue().types.append(type)
        }, Unmanaged.passUnretained(found).toOpaque())
        return found.types
    }()

    /// The classes of `all` whose schema name no other of them has: two declarations of one
    /// name (a model's older shape kept for a migration, say) leave it to the code to say
    /// which it means, by using or naming one.
    static let unambiguous: [ObjectBase.Type] = {
        let names = all.map { $0._realmObjectName() ?? $0.className() }
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return zip(all, names).filter { counts[$0.1] == 1 }.map(\.0)
    }()

    /// What `strata_enumerate_classes` collects into.
    private final class Found {
        var types: [ObjectBase.Type] = []
    }
}
