/// A small seeded generator, so a worker's choices can be replayed from its seed.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in `0..<bound` (bound > 0).
    mutating func next(below bound: Int) -> Int {
        Int(nextWord() % UInt64(bound))
    }

    /// A number in `range`.
    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(nextWord() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

    /// SplitMix64's finaliser: spreads the bits of `z` over the whole word.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
