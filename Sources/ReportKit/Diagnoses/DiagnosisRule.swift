import CDLogCore
import CDLogKit

/// A correlation rule: a root cause that several pieces of evidence (classified log entries, crash
/// reports, store figures) point to together. Loaded from `Rules/diagnoses/*.yaml` (schema in
/// `Rules/diagnoses/README.md`).
public struct DiagnosisRule: Sendable {
    public let id: String
    public let title: String
    public let severity: Severity
    /// Higher wins when several diagnoses hold.
    public let priority: Int
    public let conditions: [Condition]
    /// How many of the optional conditions must hold (default 0).
    public let atLeast: Int
    /// One-sentence statements with `{condition.key}` placeholders; the first whose placeholders all
    /// resolve is used.
    public let statements: [String]
    /// Concrete steps.
    public let advice: [String]
    public let references: [String]
    public let matchExamples: [DiagnosisExample]
    public let nomatchExamples: [DiagnosisExample]
    public let location: SourceLocation
    /// Declaration order across all files (the last tie-break).
    public let order: Int
}

/// One piece of evidence a diagnosis looks for.
public struct Condition: Sendable {
    public enum Kind: String, Sendable { case log, crash, store }
    public let name: String
    public let kind: Kind
    /// Shown beside the evidence ("Migration lines in the log").
    public let label: String
    public let optional: Bool
    public let entry: EntryMatcher?
    public let store: StoreMatcher?
}

/// Matches reported entries (`log`: any entry; `crash`: crash-report entries only).
public struct EntryMatcher: @unchecked Sendable {
    /// Rule id pattern (PCRE2, unanchored unless the pattern anchors).
    public let rule: PCRERegex?
    public let categories: [Category]
    public let minimumSeverity: Severity?
    public let message: PCRERegex?
    public let fields: [(name: String, regex: PCRERegex)]
    /// How many matching entries (echoes included) are needed.
    public let count: Comparison
}

/// Matches the figures and findings of an inspected store.
public struct StoreMatcher: Sendable {
    public let figures: [(name: String, comparison: Comparison)]
    /// walcheck finding ids that must be present.
    public let findings: [String]
}

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

/// A synthetic input for a diagnosis: console text, crash fields and store figures. `match` examples
/// must make the diagnosis hold (and its statement contain `statement` when given); `nomatch` must not.
public struct DiagnosisExample: Sendable {
    public let log: String?
    public let crash: [(name: String, value: String)]?
    public let store: [String: Double]?
    public let storeFindings: [String]
    public let statementContains: String?
    public let location: SourceLocation
}

import Foundation

