/// A value from a binary property list.
public indirect enum PlistValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 UTC.
    case date(Double)
    case data([UInt8])
    case string(String)
    case uid(UInt64)
    case array([PlistValue])
    case dictionary([(String, PlistValue)])

    public static func == (l: PlistValue, r: PlistValue) -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.real(a), .real(b)): return a == b
        case let (.date(a), .date(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.uid(a), .uid(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.dictionary(a), .dictionary(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value for `key` in a dictionary (nil otherwise).
    public subscript(key: String) -> PlistValue? {
        if case .dictionary(let pairs) = self { return pairs.first(where: { $0.0 == key })?.1 }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var intValue: Int64? {
        switch self {
        case .int(let v): return v
        case .string(let s): return Int64(s)
        default: return nil
        }
    }
}
