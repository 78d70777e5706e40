import Foundation
import Testing

/// Every console sample in `Samples/logs` is classified and compared with its checked-in expected JSON
/// Lines in `Tests/EndToEndTests/Expected/`. Re-record on purpose with `scripts/record-expected.sh`.
@Suite struct SampleGoldenTests {
    static let samplesDirectory = BinaryRunner.packageRoot.appendingPathComponent("Samples/logs")
    static let expectedDirectory = BinaryRunner.packageRoot.appendingPathComponent("Tests/EndToEndTests/Expected")

    static var samples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: samplesDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".log") || $0.hasSuffix(".ndjson") || $0.hasSuffix(".json") }.sorted()
    }

    @Test func thereAreSamples() {
        #expect(Self.samples.count >= 6)
    }

    @Test(arguments: samples)
    func sampleMatchesExpectedOutput(_ name: String) throws {
        let result = try BinaryRunner.cdlog(["classify", "--format", "jsonl", "Samples/logs/\(name)"])
        #expect(result.status == 0, "\(result.stderr)")
        let expectedURL = Self.expectedDirectory.appendingPathComponent(name + ".jsonl")
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(result.stdout == expected, "output for \(name) differs from \(expectedURL.lastPathComponent); run scripts/record-expected.sh if the change is intended")
    }

    static var crashSamples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: BinaryRunner.packageRoot.appendingPathComponent("Samples/crash").path)) ?? [])
            .filter { $0 != "README.md" }.sorted()
    }

    /// Every crash-report sample (each report kind: watchdog, 0xdead10cc, jetsam, resource reports, MetricKit)
    /// against its expected output in `Tests/EndToEndTests/Expected/crash/`.
    @Test(arguments: crashSamples)
    func crashSampleMatchesExpectedOutput(_ name: String) throws {
        let result = try BinaryRunner.cdlog(["classify", "--format", "jsonl", "Samples/crash/\(name)"])
        #expect(result.status == 0, "\(result.stderr)")
        let expectedURL = Self.expectedDirectory.appendingPathComponent("crash/" + name + ".jsonl")
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(result.stdout == expected, "output for \(name) differs from crash/\(expectedURL.lastPathComponent); run scripts/record-expected.sh if the change is intended")
    }

    @Test(arguments: samples.filter { $0.hasPrefix("healthy") })
    func healthySessionsStayAtInfoOrBelow(_ name: String) throws {
        let result = try BinaryRunner.cdlog(["classify", "--format", "jsonl", "--fail-on", "warning", "Samples/logs/\(name)"])
        #expect(result.status == 0, "a healthy session produced a finding above info:\n\(result.stdout)")
    }
}
