import Glibc

/// The ticks of a chart's axes: counts and versions in steps of 1, 2 or 5 times a power of
/// ten, times in round steps from a second to a year, labelled in UTC.
enum ChartScale {
    /// The smallest step of 1, 2 or 5 times a power of ten that is at least `minimum`.
    static func step(atLeast minimum: UInt64) -> UInt64 {
        var power: UInt64 = 1
        while true {
            for m: UInt64 in [1, 2, 5] where m * power >= minimum { return m * power }
            guard power <= UInt64.max / 100 else { return power * 10 }
            power *= 10
        }
    }

    /// The top of a count axis reaching `maximum`, and its step: about four steps.
    static func counts(upTo maximum: Int) -> (top: Int, step: Int) {
        let step = Int(Self.step(atLeast: UInt64(max(1, (maximum + 3) / 4))))
        return (max(step, (maximum + step - 1) / step * step), step)
    }

    /// Round version numbers from `oldest` to `newest`, at most about six.
    static func versions(_ oldest: UInt64, _ newest: UInt64) -> [UInt64] {
        let step = Self.step(atLeast: max(1, (newest - oldest) / 6))
        var ticks: [UInt64] = []
        var v = (oldest + step - 1) / step * step
        while v <= newest {
            ticks.append(v)
            guard v <= UInt64.max - step else { break }
            v += step
        }
        return ticks.isEmpty ? [oldest] : ticks
    }

    /// The steps of a time axis, in milliseconds.
    private static let timeSteps: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500] + [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172_800, 604_800,
        2_592_000, 7_776_000, 31_536_000,
    ].map { $0 * 1000 }

    /// Round times (seconds since 1970) from `start` to `end`, at most about six, each with
    /// its label: the time of day (with milliseconds when the step is less than a second)
    /// when the axis spans less than a day, else the day (and the hour when the step is
    /// less than a day).
    static func times(_ start: Double, _ end: Double) -> [(seconds: Double, label: String)] {
        let first = Int64((start * 1000).rounded(.up)), last = Int64((end * 1000).rounded(.down))
        let step = timeSteps.first { $0 * 6 >= last - first } ?? max(1, (last - first) / 6)
        let format = last - first < 86_400_000 ? "%H:%M:%S" : step < 86_400_000 ? "%m-%d %H:%M" : "%Y-%m-%d"
        var ticks: [(Double, String)] = []
        var t = (first + step - 1).floorDivided(by: step) * step
        while t <= last {
            let seconds = t.floorDivided(by: 1000), milliseconds = t - seconds * 1000
            let label = utc(seconds, format) + (step < 1000 ? "." + String(1000 + milliseconds).dropFirst() : "")
            ticks.append((Double(t) / 1000, label))
            t += step
        }
        return ticks
    }

    /// `seconds` since 1970 in UTC, in strftime's `format`.
    static func utc(_ seconds: Int64, _ format: String) -> String {
        var time = time_t(seconds), parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

private extension Int64 {
    /// The quotient rounded toward minus infinity.
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
