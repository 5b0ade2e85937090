// The byte offsets of a class's stored properties, read once per class from the Swift
// runtime's reflection metadata (the same entry points `Mirror` uses). This is how the object
// layer reaches each `@Persisted` field of an object without reflection on every access:
// RealmSwift does the same with the Objective-C runtime's ivar offsets.

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func _recursiveFieldCount(_: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func _recursiveFieldOffset(_: Any.Type, index: Int) -> Int

enum FieldLayout {
    /// The offsets of every stored property of `type`, superclasses' first, in declaration
    /// order: the order `Mirror` lists them from the root class down.
    static func offsets(of type: AnyClass) -> [Int] {
        (0..<_recursiveFieldCount(type)).map { _recursiveFieldOffset(type, index: $0) }
    }
}
