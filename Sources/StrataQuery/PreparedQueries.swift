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

    /// An empty cache for queries on `schema`.
    package init(schema: ClassSchema) {
        self.schema = schema
    }

    /// `text` with `arguments`, compiled as `compileQuery(_:arguments:schema:)` compiles it
    /// with no lookup (the class's own properties only), and throwing the same errors.
    package func compile(_ text: String, arguments: [Any]) throws(QueryError) -> CompiledQuery {
        if let prepared = lock.withLock({ byText[text] }), let query = prepared.compile(arguments, schema: schema) {
            return query
        }
        let ast = try ParseCache.parse(text)
        let recorder = ArgumentRecorder()
        let query = try Resolver(schema: schema, arguments: arguments, recorder: recorder).resolve(ast)
        if let prepared = PreparedQuery(query, arguments: arguments, recorder: recorder) {
            lock.withLock {
                if byText.count >= Self.capacity { byText.removeAll(keepingCapacity: true) }
                byText[text] = prepared
            }
        }
        return CompiledQuery(query, schema: schema)
    }
}
