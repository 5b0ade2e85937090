import Foundation

/// An element's place in sectioned results, as Apple platforms' UIKit and AppKit spell it
/// (Foundation on Linux has no such initializer): `[section, item]`.
extension IndexPath {
    /// The path `[section, item]`.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

    /// The section (the path's first index).
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The item within its section (the path's second index).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
