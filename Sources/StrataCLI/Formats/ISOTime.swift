import Foundation
import Glibc

/// The one date format of the JSON that `query`, `export` and the history commands write:
/// ISO 8601 in UTC with fractional seconds, `2026-12-03T07:19:55.250Z`. The fraction has at
/// least three digits, and as many more as the `Date` needs to be read back exactly
/// (`1.000000001` seconds is `...:01.000000001Z`), so an export keeps every date whole.
enum ISOTime {
    /// The most fraction digits written; a `Date` needing more (one within 10⁻²⁰ s of a
    /// whole second) has no text.
    private static let maxDigits = 20
    /// Seconds from 1970-01-01 to 2001-01-01, the reference date of a `Date`.
    private static let referenceOffset: Double = 978_307_200

    /// `date` as text, or nil when ISO 8601 cannot hold it exactly: not finite, before the
    /// year 1 or after 9999, or needing more than 20 fraction digits.
    static func text(_ date: Date) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite else { return nil }
        let whole = seconds.rounded(.down)
        guard var text = dayAndTime(whole + referenceOffset),
              let fraction = shortestFraction(seconds, whole) ?? searchedFraction(seconds, whole) else { return nil }
        text.append(UInt8(ascii: "."))
        text += fraction
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The fraction digits of `seconds` (whole part `whole`) taken from its shortest decimal
    /// (Swift's description, which reads back as the same double), at least three; nil when
    /// that decimal has an exponent or its digits do not read back exactly after `whole`.
    private static func shortestFraction(_ seconds: Double, _ whole: Double) -> [UInt8]? {
        let shortest = "\(seconds.magnitude)".utf8
        guard let point = shortest.firstIndex(of: UInt8(ascii: ".")), !shortest.contains(UInt8(ascii: "e")) else { return nil }
        var digits = Array(shortest[shortest.index(after: point)...])
        if seconds < 0, digits.contains(where: { $0 != 0x30 }) {
            // The fraction above `whole` is one minus the magnitude's: the ten's complement.
            var seenNonZero = false
            for i in digits.indices.reversed() {
                let d = digits[i] - 0x30
                if seenNonZero {
                    digits[i] = 0x30 + 9 - d
                } else if d != 0 {
                    digits[i] = 0x30 + 10 - d
                    seenNonZero = true
                }
            }
        }
        while digits.count > 3, digits.last == 0x30 { digits.removeLast() }
        while digits.count < 3 { digits.append(0x30) }
        return readsBack(digits, whole, seconds) ? digits : nil
    }

    /// Whether `whole` plus the fraction of `digits` (after the point) is `seconds`.
    private static func readsBack(_ digits: [UInt8], _ whole: Double, _ seconds: Double) -> Bool {
        let text = [CChar(0x30), CChar(0x2E)] + digits.map { CChar(bitPattern: $0) } + [0]
        return whole + strtod(text, nil) == seconds
    }

    /// The fewest fraction digits (three or more, at most 20) that read back as `seconds`
    /// after `whole`, found by trying each count; nil when none does.
    private static func searchedFraction(_ seconds: Double, _ whole: Double) -> [UInt8]? {
        let fraction = seconds - whole
        for count in 3...maxDigits {
            let text = Array(String(format: "%.\(count)f", fraction).utf8)
            if text.starts(with: [0x30, 0x2E]), readsBack(Array(text.dropFirst(2)), whole, seconds) { return Array(text.dropFirst(2)) }
        }
        return nil
    }

    /// The date of `text`: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of any length, and
    /// `Z` or an offset `±HH:MM`; nil for any other text or a day or time out of range.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var n = 0
            for b in bytes[at..<at + count] {
                guard b >= 0x30, b <= 0x39 else { return nil }
                n = n * 10 + Int(b - 0x30)
            }
            return n
        }
        func byte(_ at: Int, _ c: Character) -> Bool { at < bytes.count && bytes[at] == c.asciiValue! }
        guard let year = number(0, 4), byte(4, "-"), let month = number(5, 2), byte(7, "-"), let day = number(8, 2),
              byte(10, "T") || byte(10, "t"), let hour = number(11, 2), byte(13, ":"), let minute = number(14, 2),
              byte(16, ":"), let second = number(17, 2),
              year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var at = 19, fraction = 0.0
        if byte(at, ".") {
            let start = at + 1
            at = start
            while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39 { at += 1 }
            guard at > start, let f = Double("0." + String(decoding: bytes[start..<at], as: UTF8.self)) else { return nil }
            fraction = f
        }
        var offset = 0
        if byte(at, "Z") || byte(at, "z") {
            at += 1
        } else if byte(at, "+") || byte(at, "-"), let h = number(at + 1, 2), byte(at + 3, ":"), let m = number(at + 4, 2), h < 24, m < 60 {
            offset = (h * 60 + m) * 60 * (byte(at, "-") ? -1 : 1)
            at += 6
        } else {
            return nil
        }
        guard at == bytes.count else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epoch = timegm(&parts)
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }  // not 02-30
        return Date(timeIntervalSinceReferenceDate: (Double(epoch - offset) - referenceOffset) + fraction)
    }

    /// The ASCII of `YYYY-MM-DDTHH:MM:SS` of `seconds` since 1970 (whole), or nil outside the years 1 to 9999.
    private static func dayAndTime(_ seconds: Double) -> [UInt8]? {
        guard abs(seconds) < 1e15 else { return nil }
        var time = time_t(seconds), parts = tm()
        guard gmtime_r(&time, &parts) != nil, (1...9999).contains(Int(parts.tm_year) + 1900) else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(19)
        func put(_ n: Int32, _ width: Int, then separator: Character?) {
            var divisor: Int32 = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(0x30 + (n / divisor) % 10))
                divisor /= 10
            }
            if let separator { text.append(separator.asciiValue!) }
        }
        put(parts.tm_year + 1900, 4, then: "-")
        put(parts.tm_mon + 1, 2, then: "-")
        put(parts.tm_mday, 2, then: "T")
        put(parts.tm_hour, 2, then: ":")
        put(parts.tm_min, 2, then: ":")
        put(parts.tm_sec, 2, then: nil)
        return text
    }
}
