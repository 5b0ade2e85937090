import Foundation
import StrataStorage

/// Maps a Swift key path (`\Dog.age`) to the `@Persisted` property it reads, without names.
///
/// A recorder is a fresh instance of the class whose `@Persisted` fields all carry their
/// declaration index (as `ObjectBase.attach` writes them) but which has no Realm. Reading a
/// key path on it runs the property's accessor, which finds a managed index and calls
/// `ObjectBase._managedValue`; with no Realm, that call lands in `recordRead`, which notes
/// the index and returns null (read by the accessor as the type's default). Each key path is
/// recorded once per process and cached, so `where { … }` pays a dictionary lookup per
/// property mentioned.
///
/// Key paths through links will record one step per class: the recorded getter of a link
/// returns a recorder of the target class, so `\Dog.owner.name` records `owner` then `name`.
enum KeyPathRecorder {
    private static let lock = NSLock()
    /// Declaration index by key path (key paths include their root type).
    nonisolated(unsafe) private static var cache: [AnyKeyPath: Int] = [:]
    /// The indexes read during the current recording (written under `lock`).
    nonisolated(unsafe) private static var reads: [Int] = []

    /// The declaration index of the `@Persisted` property that `keyPath` reads. Traps, as
    /// RealmSwift does, when it reads no stored property or more than one.
    static func declarationIndex<Root: ObjectBase, V>(of keyPath: KeyPath<Root, V>, in info: ClassInfo) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let index = cache[keyPath] { return index }
        let recorder = Root.init()
        let base = Unmanaged.passUnretained(recorder).toOpaque()
        for (index, property) in info.properties.enumerated() {
            (base + property.offset).storeBytes(of: Int32(index), as: Int32.self)
        }
        reads = []
        _ = recorder[keyPath: keyPath]
        let recorded = reads
        reads = []
        guard recorded.count == 1 else {
            let what = recorded.isEmpty ? "reads no @Persisted property"
                : "reads \(recorded.count) @Persisted properties (\(recorded.map { info.properties[$0].name }.joined(separator: ", ")))"
            fatalError("Invalid query: the key path \(keyPath) of '\(info.name)' \(what); a query needs exactly one")
        }
        cache[keyPath] = recorded[0]
        return recorded[0]
    }

    /// Called by a recorder's accessor: notes the property read and returns null.
    static func recordRead(_ index: Int) -> _StrataValue {
        reads.append(index)
        return _StrataValue(.null)
    }
}
