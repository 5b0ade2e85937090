/// A map is frozen and thawed as lists and sets are: through its object and property
/// (`freeze()`, `thaw()`, `isFrozen`).
extension Map: StoredCollection, ThreadConfined {}
