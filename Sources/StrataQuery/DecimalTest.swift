import StrataStorage
import StrataValues

/// Comparisons of a decimal128 slot with a constant straight from its 16 bytes, without
/// building a `Value`; the same results as `ValueSemantics.compare`: by value across
/// exponents, NaN unequal to everything (itself included) and unordered.
enum DecimalTest {
    /// `slot op constant` for rows where the slot is not null.
    static func compile(_ slot: Int, _ op: ComparisonOperator, _ constant: BID128) -> RowPredicate {
        let whenNaN = op == .notEqual
        if constant.isNaN { return { _ in whenNaN } }
        return { row in
            // An absent slot (the property was added after the row was written) reads as 0;
            // a slot of another length reads as null, which only `!=` matches.
            guard row.hasSlot(slot) else { return ValueSemantics.ordered(BID128.compare(.zero, constant), op) }
            let bytes = row.slotBytes(slot)
            guard bytes.count == 16 else { return whenNaN }
            let value = BID128(bits: UInt128(littleEndian: bytes.loadUnaligned(as: UInt128.self)))
            return value.isNaN ? whenNaN : ValueSemantics.ordered(BID128.compare(value, constant), op)
        }
    }
}
