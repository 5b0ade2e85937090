import Foundation

/// A short human rendering of a value for error messages.
package func describe(_ value: Value) -> String {
    switch value {
    case .null: "nil"
    case .bool(let b): "\(b)"
    case .int(let i): "\(i)"
    case .float(let f): "\(f)"
    case .double(let d): "\(d)"
    case .string(let s): s.count > 60 ? String(s.prefix(60)) + "…" : s
    case .data(let d): "<\(d.count) bytes>"
    case .date(let d): "\(d)"
    case .uuid(let u): u.uuidString
    case .link(let k): "object \(k)"
    case .typedLink(let c, let k): "\(c) object \(k)"
    case .objectId(let id): id.stringValue
    case .decimal128(let d): d.text
    }
}
