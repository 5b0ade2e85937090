/// A small seeded random generator (splitmix64): the same sequence on every platform for a
/// seed, so that a benchmark's workload, a stress worker's choices and a randomised test can
/// be replayed from the seed they print. Not for anything that must be unpredictable.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in `0..<bound` (bound > 0).
    package mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    package mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

    /// SplitMix64's finaliser: spreads the bits of `value` over the whole word (a cheap hash
    /// of a seed).
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
