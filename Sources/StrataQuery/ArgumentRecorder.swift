import StrataStorage

/// What the resolver did with a query's arguments, recorded while it resolves the text once:
/// how often it read each argument, and where the constants of the resolved tree came from.
/// `PreparedQuery` uses it to tell whether the tree depends on the arguments only through
/// values it can replace.
///
/// An argument is bindable when every read of it became a constant of the tree unchanged (an
/// int compared with an int property, a string with a string property, ...). Anything else
/// (a `%K` key path, an object, a value converted to the property's type, two constants
/// compared with each other) makes the tree depend on the value, and the query is resolved
/// anew each time.
final class ArgumentRecorder {
    /// Where the value, or the values, of one operand of the tree came from.
    enum Origin: Equatable {
        /// Written in the query text.
        case fixed
        /// Argument `i`, unchanged.
        case argument(Int)
        /// Every element of array argument `i`, unchanged, in order (`IN %@`).
        case elements(Int)
        /// A `{…}` list whose items are fixed or arguments (`BETWEEN {%@, %@}`).
        case items([Origin])
    }

    /// The constant operands in the order the resolver made them, with their origins.
    private(set) var operands: [(origin: Origin, operand: ResolvedOperand)] = []
    /// How many times each argument was read.
    private var reads: [Int: Int] = [:]
    /// How many constants each argument became unchanged.
    private var bound: [Int: Int] = [:]
    /// False once an argument was used in a way that depends on its value.
    private var unchanged = true

    /// Whether every read of every argument became a constant unchanged.
    var isBindable: Bool { unchanged && reads == bound }

    /// The indexes of the arguments the query reads.
    var argumentsRead: Set<Int> { Set(reads.keys) }

    /// The resolver read argument `i`.
    func read(_ i: Int) { reads[i, default: 0] += 1 }

    /// A single constant `original` from `source` became the operand value `resolved`.
    func constant(_ original: Value, from source: OperandSource, resolved: Value) {
        operands.append((origin(original, source, resolved), .value(resolved)))
    }

    /// The items of a list became the operand values `resolved`; `spread` tells whether an
    /// array argument of any length may stand for all of them (IN, not BETWEEN).
    func list(_ items: [(Value, source: OperandSource)], resolved: [Value], spread: Bool) {
        let single: Int? = items.first.flatMap { if case .element(let i) = $0.source { i } else { nil } }
        if let i = single, items.allSatisfy({ if case .element(i) = $0.source { true } else { false } }) {
            let same = zip(items, resolved).allSatisfy { $0.0 == $1 }
            if spread && same { bound[i, default: 0] += 1 } else { unchanged = false }
            operands.append((.elements(i), .values(resolved)))
            return
        }
        let origins = zip(items, resolved).map { origin($0.0, $0.source, $1) }
        operands.append((.items(origins), .values(resolved)))
    }

    private func origin(_ original: Value, _ source: OperandSource, _ resolved: Value) -> Origin {
        switch source {
        case .literal, .text:
            return .fixed
        case .argument(let i, _):
            if original == resolved { bound[i, default: 0] += 1 } else { unchanged = false }
            return .argument(i)
        case .element:
            unchanged = false
            return .fixed
        }
    }
}
