import Foundation

extension RealmCollectionChange {
    /// The same change, telling about `transform(collection)` instead: a wrapper of the
    /// observed results (`LinkingObjects`, `List`) or a frozen copy (`changes`).
    func map<Other>(_ transform: (CollectionType) -> Other) -> RealmCollectionChange<Other> {
        switch self {
        case .initial(let collection): .initial(transform(collection))
        case let .update(collection, deletions, insertions, modifications):
            .update(transform(collection), deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): .error(error)
        }
    }
}

extension RealmMapChange {
    /// The same change by key, telling about `transform(map)` instead: a frozen copy
    /// (`changes`).
    func map<Other: RealmKeyedCollection>(_ transform: (Collection) -> Other) -> RealmMapChange<Other>
    where Other.Key == Collection.Key {
        switch self {
        case .initial(let map): .initial(transform(map))
        case let .update(map, deletions, insertions, modifications):
            .update(transform(map), deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): .error(error)
        }
    }
}
