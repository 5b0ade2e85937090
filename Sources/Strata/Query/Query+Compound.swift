import Foundation
import StrataQuery

extension Query where T == Bool {
    /// `NOT condition`.
    public static prefix func ! (_ query: Query) -> Query<Bool> {
        Query(.predicate(.not(query.predicate)), query.context, format: .not(query.format))
    }

    /// `lhs AND rhs` (nested ANDs are flattened, as the parser does).
    public static func && (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        Query(.predicate(.and(operands(lhs.predicate, rhs.predicate, and: true))), lhs.context,
              format: .comparison("&&", lhs.format, rhs.format, options: []))
    }

    /// `lhs OR rhs` (nested ORs are flattened, as the parser does).
    public static func || (_ lhs: Query, _ rhs: Query) -> Query<Bool> {
        Query(.predicate(.or(operands(lhs.predicate, rhs.predicate, and: false))), lhs.context,
              format: .comparison("||", lhs.format, rhs.format, options: []))
    }

    /// The operands of a flattened AND or OR.
    private static func operands(_ a: ResolvedPredicate, _ b: ResolvedPredicate, and: Bool) -> [ResolvedPredicate] {
        [a, b].flatMap { p -> [ResolvedPredicate] in
            switch (p, and) {
            case (.and(let ps), true), (.or(let ps), false): ps
            default: [p]
            }
        }
    }
}
