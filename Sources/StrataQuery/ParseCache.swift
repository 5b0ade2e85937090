import Foundation

/// Recently parsed query texts and their trees, so that an application running the same
/// query with new arguments (`filter("name == %@", name)` in a loop) parses it once.
/// Arguments are bound later, by the resolver, so the tree depends on the text alone.
enum ParseCache {
    /// Entries kept before the cache starts over.
    static let capacity = 256

    private static let lock = NSLock()
    nonisolated(unsafe) private static var trees: [String: QueryAST] = [:]

    /// The tree of `text`, parsed now or found in the cache. Errors are not cached.
    static func parse(_ text: String) throws(QueryError) -> QueryAST {
        if let tree = lock.withLock({ trees[text] }) { return tree }
        let tree = try Parser.parse(text)
        lock.withLock {
            if trees.count >= capacity { trees.removeAll(keepingCapacity: true) }
            trees[text] = tree
        }
        return tree
    }
}
