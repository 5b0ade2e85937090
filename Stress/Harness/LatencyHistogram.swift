import Foundation

/// Notification latencies in logarithmic buckets 5 % wide (from 1 µs), so an observer sends
/// them in one short line and the coordinator merges those of every observer; the maximum
/// is kept exactly, percentiles to within a bucket.
struct LatencyHistogram {
    private static let ratio = 1.05
    private var counts: [Int: Int] = [:]
    private(set) var maxMicroseconds = 0

    init() {}

    /// How many latencies were recorded.
    var count: Int { counts.values.reduce(0, +) }

    /// Records one latency.
    mutating func record(seconds: Double) {
        let microseconds = max(0, seconds * 1e6)
        counts[Self.bucket(microseconds), default: 0] += 1
        maxMicroseconds = max(maxMicroseconds, Int(microseconds.rounded(.up)))
    }

    /// Adds the latencies of `other`.
    mutating func merge(_ other: LatencyHistogram) {
        counts.merge(other.counts, uniquingKeysWith: +)
        maxMicroseconds = max(maxMicroseconds, other.maxMicroseconds)
    }

    /// The latency (seconds) that `fraction` of the recorded ones do not exceed: the upper
    /// edge of its bucket, at most the maximum; nil when nothing was recorded.
    func percentile(_ fraction: Double) -> Double? {
        let total = count
        guard total > 0 else { return nil }
        let rank = Int((fraction * Double(total)).rounded(.up))
        var seen = 0
        for bucket in counts.keys.sorted() {
            seen += counts[bucket]!
            if seen >= rank { return min(pow(Self.ratio, Double(bucket)), Double(maxMicroseconds)) / 1e6 }
        }
        return Double(maxMicroseconds) / 1e6
    }

    /// `max=<µs> buckets=<bucket>:<count>,...`, as a worker prints it.
    var encoded: String {
        let buckets = counts.keys.sorted().map { "\($0):\(counts[$0]!)" }.joined(separator: ",")
        return "max=\(maxMicroseconds) buckets=\(buckets)"
    }

    /// Parses `encoded`; nil when malformed.
    init?(encoded: String) {
        for field in encoded.split(separator: " ") {
            if field.hasPrefix("max=") {
                guard let value = Int(field.dropFirst(4)) else { return nil }
                maxMicroseconds = value
            } else if field.hasPrefix("buckets=") {
                for pair in field.dropFirst(8).split(separator: ",") {
                    let parts = pair.split(separator: ":")
                    guard parts.count == 2, let bucket = Int(parts[0]), let n = Int(parts[1]) else { return nil }
                    counts[bucket, default: 0] += n
                }
            } else {
                return nil
            }
        }
    }

    /// The bucket of a latency: the smallest b with 1.05^b ≥ µs.
    private static func bucket(_ microseconds: Double) -> Int {
        microseconds <= 1 ? 0 : Int((log(microseconds) / log(ratio)).rounded(.up))
    }
}
