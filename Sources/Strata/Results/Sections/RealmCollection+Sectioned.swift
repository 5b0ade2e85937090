import Foundation

// Making `SectionedResults` from a collection: sort it, then group it by a key.

public extension RealmCollection {
    /// The objects (or projections) sorted by `sortDescriptors`, in one section per value of
    /// `keyPath`.
    func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>, sortDescriptors: [SortDescriptor]) -> SectionedResults<Key, Element> {
        sectioned(by: { $0[keyPath: keyPath] }, sortDescriptors: sortDescriptors)
    }

    /// The objects (or projections) sorted by `sortDescriptors`, in one section per key
    /// `block` gives.
    func sectioned<Key: _Persistable & Hashable>(by block: @escaping (Element) -> Key, sortDescriptors: [SortDescriptor]) -> SectionedResults<Key, Element> {
        SectionedResults(results: sorted(by: sortDescriptors), sectionKey: block)
    }
}

public extension RealmCollection where Element: ObjectBase {
    /// The objects sorted by the property `keyPath` reads (ascending by default), in one
    /// section per value of `keyPath` (which may compute its key from that property, such as
    /// a first letter).
    func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>, ascending: Bool = true) -> SectionedResults<Key, Element> {
        let path = KeyPathRecorder.observedPaths([keyPath as PartialKeyPath<Element>])[0]
        return sectioned(by: keyPath, sortDescriptors: [SortDescriptor(keyPath: path, ascending: ascending)])
    }
}

public extension RealmCollection {
    /// The values of a list, set or map of values sorted (ascending by default), in one
    /// section per key `block` gives. Traps on an unmanaged collection or one of objects
    /// (section those by a key path or with sort descriptors), as RealmSwift does.
    func sectioned<Key: _Persistable & Hashable>(by block: @escaping (Element) -> Key, ascending: Bool = true) -> SectionedResults<Key, Element> {
        SectionedResults(results: valueResults { $0.ascending = ascending }, sectionKey: block)
    }
}

public extension RealmCollection where Element: ProjectionObservable {
    /// The projections sorted by the root object's property `keyPath` reads (ascending by
    /// default), in one section per value of `keyPath`.
    func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>, ascending: Bool = true) -> SectionedResults<Key, Element> {
        let info = ModelClass.forType(Element.Root.self)
        let path = KeyPathRecorder.readPath(on: Element.Root.self, in: info) { root in
            _ = Element(projecting: unsafeDowncast(root, to: Element.Root.self))[keyPath: keyPath]
        }
        precondition(!path.isEmpty, "Key path \(keyPath) reads no persisted property of '\(info.name)'")
        return sectioned(by: keyPath, sortDescriptors: [SortDescriptor(keyPath: path.joined(separator: "."), ascending: ascending)])
    }
}
