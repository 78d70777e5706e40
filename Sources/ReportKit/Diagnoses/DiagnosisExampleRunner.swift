import CDLogCore
import CDLogKit

/// Runs the `examples` of diagnosis rules: each `match` example must make its diagnosis hold (and the
/// statement contain `statement` when given); each `nomatch` example must not make it hold.
public struct DiagnosisExampleRunner {
    public struct Failure: CustomStringConvertible, Sendable {
        public let diagnosis: String
        public let location: SourceLocation
        public let message: String
        public var description: String { "\(location): \(diagnosis): \(message)" }
    }

    public let classifier: Classifier
    public let catalog: DiagnosisCatalog

    public init(classifier: Classifier, catalog: DiagnosisCatalog) {
        self.classifier = classifier
        self.catalog = catalog
    }

    /// Evaluates the whole catalog on one example; returns the diagnoses that hold.
    public func evaluate(_ example: DiagnosisExample) throws -> [DiagnosisResult] {
        let evidence = EvidenceCollector(catalog: catalog, cutter: .plain)
        final class Forward: FindingWriter {
            let evidence: EvidenceCollector
            init(_ evidence: EvidenceCollector) { self.evidence = evidence }
            func report(_ entry: ClassifiedEntry) throws { evidence.offer(entry) }
            func finish(summary: ClassifySummary) throws {}
        }
        if let log = example.log {
            var options = ClassifyRun.Options()
            options.includeUnclassified = true
            try ClassifyRun(classifier: classifier, options: options)
                .run(sources: [MemoryByteSource(name: "example.log", text: log)], reporter: Forward(evidence))
        }
        if let crash = example.crash {
            var entry = Entry(source: "example.ips", line: 1, endLine: 1, message: "Crash report (example)", format: .crashReport)
            entry.presetFields = crash
            evidence.offer(entry: entry, classification: nil, count: 1)
        }
        var stores: [StoreFacts] = []
        if let figures = example.store {
            stores.append(StoreFacts(path: "example.sqlite", figures: figures,
                                     findings: example.storeFindings.map { ($0, .warning, $0) }))
        }
        return Correlator.evaluate(catalog, evidence: evidence, stores: stores)
    }

    public func run(_ rules: [DiagnosisRule]? = nil) -> [Failure] {
        var failures: [Failure] = []
        for rule in rules ?? catalog.diagnoses {
            for example in rule.matchExamples {
                do {
                    let results = try evaluate(example)
                    guard let result = results.first(where: { $0.id == rule.id }) else {
                        failures.append(Failure(diagnosis: rule.id, location: example.location, message: "match example does not make the diagnosis hold"))
                        continue
                    }
                    if let expected = example.statementContains, !result.statement.contains(expected) {
                        failures.append(Failure(diagnosis: rule.id, location: example.location,
                                                message: "statement “\(result.statement)” does not contain “\(expected)”"))
                    }
                } catch {
                    failures.append(Failure(diagnosis: rule.id, location: example.location, message: "\(error)"))
                }
            }
            for example in rule.nomatchExamples {
                do {
                    if try evaluate(example).contains(where: { $0.id == rule.id }) {
                        failures.append(Failure(diagnosis: rule.id, location: example.location, message: "nomatch example makes the diagnosis hold"))
                    }
                } catch {
                    failures.append(Failure(diagnosis: rule.id, location: example.location, message: "\(error)"))
                }
            }
        }
        return failures
    }
}
