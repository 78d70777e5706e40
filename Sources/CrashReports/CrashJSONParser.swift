import CDLogCore

/// Parses JSON without recursion.
///
/// `lenient`: at an unexpected end of input the open containers are closed and what was read so far is
/// returned with `truncated == true` (a crash report cut off mid-file still yields its header fields).
/// Any other syntax error, or nesting deeper than `maxDepth`, throws `CrashJSONError`.
struct CrashJSONParser {
    static let maxDepth = 512

    struct Result {
        var value: CrashJSON
        var truncated: Bool
        /// Offset just after the value (trailing text is the caller's business).
        var end: Int
    }

    private enum Container {
        /// A box, so that appending is never a copy: an enum payload bound by a pattern (`stack.last`)
        /// is a second reference to the array, and every append then copied it (quadratic in its length).
        case array(ArrayBox)
        case object(CrashJSONObject, pendingKey: String?)
    }

    private final class ArrayBox {
        var items: [CrashJSON] = []
    }

    private let bytes: [UInt8]
    private var index: Int
    private let endIndex: Int

    init(bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.index = start
        self.endIndex = min(end ?? bytes.count, bytes.count)
    }

    static func parse(_ bytes: [UInt8], start: Int = 0, end: Int? = nil, lenient: Bool = false) throws -> Result {
        var parser = CrashJSONParser(bytes: bytes, start: start, end: end)
        return try parser.parseValue(lenient: lenient)
    }

    private mutating func skipWhitespace() {
        while index < endIndex {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(lenient: Bool) throws -> Result {
        var stack: [Container] = []
        skipWhitespace()
        // Each turn reads one token; a completed scalar or container is attached to the container on top.
        while true {
            skipWhitespace()
            guard index < endIndex else {
                if lenient, !stack.isEmpty {
                    return Result(value: Self.closeAll(&stack, at: index), truncated: true, end: index)
                }
                throw CrashJSONError(stack.isEmpty ? "no JSON value" : "JSON ends before its last value is complete", offset: index)
            }
            // Inside an object, expect a key (or the closing brace) first.
            if case .object(let object, let pendingKey) = stack.last, pendingKey == nil {
                let byte = bytes[index]
                if byte == UInt8(ascii: "}") {
                    index += 1
                    object.end = index
                    stack.removeLast()
                    if let done = try attach(.object(object), to: &stack) { return done }
                    continue
                }
                if !object.members.isEmpty {
                    guard byte == UInt8(ascii: ",") else { throw CrashJSONError("expected ',' or '}' in object", offset: index) }
                    index += 1
                    skipWhitespace()
                }
                guard index < endIndex else { continue }
                guard bytes[index] == UInt8(ascii: "\"") else { throw CrashJSONError("expected a string key in object", offset: index) }
                guard let key = try parseString() else { continue }
                skipWhitespace()
                guard index < endIndex else { continue }
                guard bytes[index] == UInt8(ascii: ":") else { throw CrashJSONError("expected ':' after object key", offset: index) }
                index += 1
                stack[stack.count - 1] = .object(object, pendingKey: key)
                continue
            }
            if case .array(let box) = stack.last {
                let byte = bytes[index]
                if byte == UInt8(ascii: "]") {
                    index += 1
                    stack.removeLast()
                    if let done = try attach(.array(box.items), to: &stack) { return done }
                    continue
                }
                if !box.items.isEmpty {
                    guard byte == UInt8(ascii: ",") else { throw CrashJSONError("expected ',' or ']' in array", offset: index) }
                    index += 1
                    skipWhitespace()
                    guard index < endIndex else { continue }
                }
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                guard stack.count < Self.maxDepth else {
                    throw CrashJSONError("JSON nested deeper than \(Self.maxDepth) levels", offset: index)
                }
                stack.append(.object(CrashJSONObject(start: index), pendingKey: nil))
                index += 1
            case UInt8(ascii: "["):
                guard stack.count < Self.maxDepth else {
                    throw CrashJSONError("JSON nested deeper than \(Self.maxDepth) levels", offset: index)
                }
                stack.append(.array(ArrayBox()))
                index += 1
            case UInt8(ascii: "\""):
                guard let string = try parseString() else { continue }
                if let done = try attach(.string(string), to: &stack) { return done }
            default:
                guard let scalar = try parseScalar() else { continue }
                if let done = try attach(scalar, to: &stack) { return done }
            }
        }
    }

    /// Adds a finished value to the open container; returns the result when it was the top-level value.
    private func attach(_ value: CrashJSON, to stack: inout [Container]) throws -> Result? {
        guard let top = stack.last else { return Result(value: value, truncated: false, end: index) }
        switch top {
        case .array(let box):
            box.items.append(value)
        case .object(let object, let key):
            object.members.append((key ?? "", value))
            stack[stack.count - 1] = .object(object, pendingKey: nil)
        }
        return nil
    }

    private static func closeAll(_ stack: inout [Container], at offset: Int) -> CrashJSON {
        var value: CrashJSON? = nil
        while let top = stack.popLast() {
            switch top {
            case .array(let box):
                if let value { box.items.append(value) }
                value = .array(box.items)
            case .object(let object, let key):
                if let value, let key { object.members.append((key, value)) }
                object.end = offset
                value = .object(object)
            }
        }
        return value ?? .null
    }

    /// Reads a string starting at the opening quote. Returns nil at an unexpected end of input
    /// (the caller then closes the containers in lenient mode).
    private mutating func parseString() throws -> String? {
        index += 1
        var utf8: [UInt8] = []
        while index < endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                switch JSONEscape.decode(bytes, at: index, end: endIndex) {
                case .truncated:
                    index = endIndex
                    return nil
                case .invalid(let next):
                    index = next
                    throw CrashJSONError("bad \\u escape in string", offset: index)
                case .byte(let escaped, let next):
                    utf8.append(escaped)  // \" \\ \/ and anything unknown: keep the character
                    index = next
                case .scalar(let scalar, let next):
                    UTF8.encode(scalar) { utf8.append($0) }
                    index = next
                }
                continue
            }
            utf8.append(byte)
            index += 1
        }
        return nil
    }

    private mutating func parseScalar() throws -> CrashJSON? {
        let start = index
        while index < endIndex {
            let byte = bytes[index]
            let isToken = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "E")
            if !isToken { break }
            index += 1
        }
        let token = String(decoding: bytes[start..<index], as: UTF8.self)
        switch token {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case "":
            throw CrashJSONError("unexpected character in JSON", offset: start)
        default:
            guard let first = token.first, first == "-" || first.isNumber, Double(token) != nil else {
                if index >= endIndex { return nil }
                throw CrashJSONError("unexpected token '\(token.prefix(20))' in JSON", offset: start)
            }
            if index >= endIndex { return nil }  // a number cut by the end of input may be incomplete
            return .number(token)
        }
    }
}
