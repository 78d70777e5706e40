import CDLogCore
import CDLogKit
import Foundation
import StoreInspection

/// The diagnosis catalog: embedded `Rules/diagnoses/*.yaml`, optionally plus user files.
public struct DiagnosisCatalog: Sendable {
    public let diagnoses: [DiagnosisRule]

    public init(files: [(path: String, text: String)]) throws {
        var all: [DiagnosisRule] = []
        var seen: [String: SourceLocation] = [:]
        for file in files {
            for rule in try DiagnosisLoader(path: file.path, text: file.text).load(firstOrder: all.count) {
                if let first = seen[rule.id] {
                    throw ToolFailure("\(rule.location): error: duplicate diagnosis id `\(rule.id)` (first defined at \(first))")
                }
                seen[rule.id] = rule.location
                all.append(rule)
            }
        }
        diagnoses = all
    }

    /// The catalog compiled into the binary.
    public static func embedded() throws -> DiagnosisCatalog {
        try DiagnosisCatalog(files: EmbeddedDiagnosisFiles.files.map {
            ($0.path, $0.text)
        })
    }

    public func diagnosis(id: String) -> DiagnosisRule? { diagnoses.first { $0.id == id } }
}

extension DiagnosisCatalog {
    /// The literals an unclassified entry must hold to matter to a report: `extra` (the appendix's
    /// Core Data / CloudKit words) and, for every entry condition an unclassified entry could satisfy
    /// (no rule, category or severity), the literals its message pattern requires. Nil when such a
    /// condition has no case-sensitive required literal: then every unclassified entry is wanted.
    public func unclassifiedLiterals(extra: [String]) -> [[UInt8]]? {
        var literals = extra.map { Array($0.utf8) }
        for diagnosis in diagnoses {
            for condition in diagnosis.conditions {
                guard let matcher = condition.entry, matcher.rule == nil, matcher.categories.isEmpty,
                      matcher.minimumSeverity == nil, condition.kind != .crash else { continue }
                guard let message = matcher.message, let required = RequiredLiterals.of(pattern: message.pattern),
                      !required.caseless else {
                    // Fields alone come from crash reports, which are always wanted; anything else: all.
                    if matcher.message == nil && !matcher.fields.isEmpty { continue }
                    return nil
                }
                literals.append(contentsOf: required.alternatives)
            }
        }
        return literals
    }
}

extension DiagnosisCatalog {
    /// What the catalog names that does not exist: a condition's `rule:` pattern no rule id of `ruleIDs`
    /// matches, a `findings:` id walcheck never gives. One line each (`diagnosis id, condition: …`);
    /// empty when every reference resolves. `cdlog rules test` prints them as failures.
    public func danglingReferences(ruleIDs: [String]) -> [String] {
        let scratch = MatchScratch()
        var problems: [String] = []
        for diagnosis in diagnoses {
            for condition in diagnosis.conditions {
                if let rule = condition.entry?.rule, !ruleIDs.contains(where: { rule.matches($0, scratch: scratch) }) {
                    problems.append("\(diagnosis.id), condition \(condition.name): rule pattern `\(rule.pattern)` matches no rule id")
                }
                for finding in condition.store?.findings ?? [] where !FindingRules.ids.contains(finding) {
                    problems.append("\(diagnosis.id), condition \(condition.name): walcheck gives no finding `\(finding)`")
                }
            }
        }
        return problems
    }
}
