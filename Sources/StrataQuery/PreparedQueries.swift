import Foundation
import StrataStorage

/// The query texts prepared for one class of one open file (`PreparedQuery`), so that an
/// application running the same query with new arguments (`filter("name == %@", name)` in a
/// loop) resolves it once and only binds the arguments afterwards.
///
/// Only queries on the class's own properties are prepared: the tree of one that follows
/// relationships depends on other classes' schemas too. Thread-safe: a frozen Realm's
/// collections may be filtered on any thread.
package final class PreparedQueries: @unchecked Sendable {
    /// Texts kept before the cache starts over.
    static let capacity = 128

    private let schema: ClassSchema
    private let lock = NSLock()
    private var byText: [String: PreparedQuery] = [:]
    /// The text found last and its query: a loop filtering with one text finds it without
    /// hashing the text.
    private var last: (text: String, prepared: PreparedQuery)?

    /// An empty cache for queries on `schema`.
    package init(schema: ClassSchema) {
        self.schema = schema
    }

    /// `text` with `arguments`, compiled as `compileQuery(_:arguments:schema:lookup:)`
    /// compiles it, and throwing the same errors. A text that names only the class's own
    /// properties is prepared; `lookup` is asked for the other classes only when the text
    /// reaches them.
    package func compile(_ text: String, arguments: [Any], lookup: any SchemaLookupSource) throws(QueryError) -> CompiledQuery {
        if let prepared = lock.withLock({ prepared(for: text) }), let query = prepared.compile(arguments, schema: schema) {
            return query
        }
        let ast = try ParseCache.parse(text)
        let recorder = ArgumentRecorder()
        let classes = ReachableClasses(of: schema, from: lookup)
        let query = try Resolver(schema: schema, arguments: arguments, classes: classes, recorder: recorder).resolve(ast)
        if !classes.reachedOtherClasses, let prepared = PreparedQuery(query, arguments: arguments, recorder: recorder) {
            lock.withLock {
                if byText.count >= Self.capacity { byText.removeAll(keepingCapacity: true) }
                byText[text] = prepared
                last = (text, prepared)
            }
        }
        return CompiledQuery(query, schema: schema)
    }

    /// The query prepared for `text`, if any. Called with `lock` held.
    private func prepared(for text: String) -> PreparedQuery? {
        if let last, last.text == text { return last.prepared }
        guard let found = byText[text] else { return nil }
        last = (text, found)
        return found
    }
}
