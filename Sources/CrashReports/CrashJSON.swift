import CDLogCore
/// A JSON value as read from a crash report.
///
/// Crash reports come from users and may be truncated, mistyped or hostile, so this is a small
/// iterative parser (no recursion: a document nested 100 000 levels deep cannot overflow the stack)
/// with a nesting limit, and accessors that answer `nil` for a value of the wrong type instead of trapping.
/// Numbers keep their source text so that 64-bit codes (`2343432205`, register values) stay exact.
enum CrashJSON {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([CrashJSON])
    case object(CrashJSONObject)

    subscript(key: String) -> CrashJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var array: [CrashJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var object: CrashJSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    var bool: Bool? {
        switch self {
        case .bool(let value): return value
        case .number(let text): return text != "0"
        case .string(let text): return text == "true" || text == "1"
        default: return nil
        }
    }

    /// The value as an integer: numbers, and strings holding a decimal or `0x` hexadecimal number
    /// (header fields change type between OS releases).
    var integer: UInt64? {
        switch self {
        case .number(let text): return UInt64(text) ?? Double(text).flatMap { $0 >= 0 && $0 < 1.8e19 ? UInt64($0) : nil }
        case .string(let text): return CrashText.parseInteger(text)
        default: return nil
        }
    }

    /// A scalar rendered as text (strings as they are, numbers in their source form).
    var text: String? {
        switch self {
        case .string(let value): return value
        case .number(let value): return value
        case .bool(let value): return value ? "true" : "false"
        default: return nil
        }
    }
}
