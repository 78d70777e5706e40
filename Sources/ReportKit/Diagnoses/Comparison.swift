import Foundation

/// `>= 16 MiB`, `> 0`, `== 3`, `< 2.5`: a comparison against a number; sizes accept KiB/MiB/GiB/KB/MB/GB.
public struct Comparison: Sendable, Equatable, CustomStringConvertible {
    public enum Operator: String, Sendable { case ge = ">=", gt = ">", le = "<=", lt = "<", eq = "==" }
    public let op: Operator
    public let value: Double

    public init(_ op: Operator, _ value: Double) { self.op = op; self.value = value }

    public func holds(_ x: Double) -> Bool {
        switch op {
        case .ge: return x >= value
        case .gt: return x > value
        case .le: return x <= value
        case .lt: return x < value
        case .eq: return x == value
        }
    }

    public var description: String { "\(op.rawValue) \(Format.number(value))" }

    static let units: [(String, Double)] = [
        ("KiB", 1024), ("MiB", 1_048_576), ("GiB", Double(1 << 30)), ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
        ("bytes", 1), ("B", 1),
    ]

    /// Parses `>= 16 MiB`; a bare number means `>=`.
    public static func parse(_ text: String) -> Comparison? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        var op = Operator.ge
        for candidate in [Operator.ge, .le, .eq, .gt, .lt] where rest.hasPrefix(candidate.rawValue) {
            op = candidate
            rest = rest.dropFirst(candidate.rawValue.count)
            break
        }
        var body = rest.trimmingCharacters(in: .whitespaces)
        var factor = 1.0
        for (unit, f) in units where body.hasSuffix(unit) {
            factor = f
            body = String(body.dropLast(unit.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        guard let number = Double(body.replacingOccurrences(of: "_", with: "")), number.isFinite else { return nil }
        return Comparison(op, number * factor)
    }
}
