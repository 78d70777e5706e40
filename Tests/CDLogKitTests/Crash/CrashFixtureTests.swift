import Testing
import Foundation
import CDLogCore
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

/// Real reports of every format (Fixtures/crash/SOURCES.md), parsed and classified with the built-in rules.
@Suite("Crash fixtures")
struct CrashFixtureTests {
    struct Expectation: CustomStringConvertible {
        var file: String
        var index = 0
        var format: String
        var rule: String
        var category: String
        var code: String?
        var exceptionType: String?
        var event: String?
        var cause = "unknown"
        var cpu: String?
        var partial = false
        var description: String { "\(file)#\(index)" }
    }

    static let expectations: [Expectation] = [
        Expectation(file: "ips-watchdog-migration-wal-checkpoint-constructed.ips", format: "ips",
                    rule: "watchdog.kill.migration-wal-checkpoint", category: "watchdog", code: "0x8badf00d",
                    exceptionType: "EXC_CRASH", event: "scene-create", cause: "migration-wal-checkpoint", cpu: "waiting"),
        Expectation(file: "ips-swift-trap-ios16.ips", format: "ips", rule: "crash.swift-trap", category: "crash",
                    code: "0x5", exceptionType: "EXC_BREAKPOINT"),
        Expectation(file: "xcode-translated-swift-trap-ios16.ips", format: "ips", rule: "crash.swift-trap",
                    category: "crash", code: "0x5", exceptionType: "EXC_BREAKPOINT"),
        Expectation(file: "crash-swift-trap-ios16.crash", format: "crash", rule: "crash.swift-trap", category: "crash",
                    code: "0x5", exceptionType: "EXC_BREAKPOINT"),
        Expectation(file: "crash-watchdog-scene-update-ios11.crash", format: "crash", rule: "watchdog.kill",
                    category: "watchdog", code: "0x8badf00d", exceptionType: "EXC_BAD_ACCESS", event: "scene-update",
                    cpu: "waiting"),
        Expectation(file: "crash-watchdog-unsymbolicated-ios13-excerpt.crash", format: "crash", rule: "watchdog.kill",
                    category: "watchdog", code: "0x8badf00d", exceptionType: "EXC_CRASH", event: "scene-create",
                    cpu: "waiting"),
        Expectation(file: "crash-dead10cc-sqlite-ios10.crash", format: "crash", rule: "crash.file-lock-at-suspension.sqlite",
                    category: "crash", code: "0xdead10cc", exceptionType: "EXC_CRASH", cause: "sqlite-io"),
        Expectation(file: "crash-exc-resource-cpu-ios8.crash", format: "ips", rule: "crash.exc-resource.cpu",
                    category: "crash", exceptionType: "EXC_RESOURCE"),
        Expectation(file: "crash-thermal-ios5-partial.crash", format: "crash", rule: "crash.thermal", category: "crash",
                    code: "0xc00010ff", exceptionType: "00000020"),
        Expectation(file: "crash-coredata-exception-ios13-excerpt.crash", format: "crash", rule: "crash.coredata-exception",
                    category: "crash", exceptionType: "EXC_CRASH", cause: "store-load", partial: true),
        Expectation(file: "metrickit-watchdog-scene-update-ios26.json", format: "metrickit", rule: "watchdog.kill",
                    category: "watchdog", code: "0x8badf00d", exceptionType: "EXC_CRASH", event: "scene-update", cpu: "busy"),
        Expectation(file: "metrickit-two-crashes-ios14.json", index: 0, format: "metrickit", rule: "crash.swift-trap",
                    category: "crash", code: "0x5", exceptionType: "EXC_BREAKPOINT"),
        Expectation(file: "metrickit-two-crashes-ios14.json", index: 1, format: "metrickit", rule: "crash.bad-access",
                    category: "crash", code: "0xb", exceptionType: "EXC_BAD_ACCESS"),
        Expectation(file: "metrickit-xcode-simulated-macos13.json", index: 0, format: "metrickit",
                    rule: "crash.exc-resource.disk-writes", category: "crash"),
        Expectation(file: "metrickit-xcode-simulated-macos13.json", index: 1, format: "metrickit", rule: "watchdog.hang",
                    category: "watchdog", cpu: "unknown"),
        Expectation(file: "metrickit-xcode-simulated-macos13.json", index: 2, format: "metrickit", rule: "crash.bad-access",
                    category: "crash", code: "0xb", exceptionType: "EXC_BAD_ACCESS"),
        Expectation(file: "metrickit-xcode-simulated-macos13.json", index: 3, format: "metrickit",
                    rule: "crash.exc-resource.cpu", category: "crash"),
        Expectation(file: "metrickit-xcode-simulated-macos13.json", index: 4, format: "metrickit",
                    rule: "watchdog.slow-launch", category: "watchdog"),
    ]

    static let classifier: Classifier? = try? Classifier(ruleSet: RuleSet.embedded())

    @Test("every fixture file has an expectation", arguments: CrashFixtures.all)
    func everyFixtureIsCovered(_ name: String) {
        #expect(Self.expectations.contains(where: { $0.file == name }), "no expectation for \(name)")
    }

    @Test("fixture parses and classifies", arguments: expectations)
    func fixture(_ expected: Expectation) throws {
        let entries = try CrashFixtures.entries(expected.file)
        try #require(entries.count > expected.index)
        let entry = entries[expected.index]
        #expect(entry.format == .crashReport)
        #expect(entry.field("reportFormat") == expected.format)
        #expect(entry.field("terminationCode") == expected.code)
        #expect(entry.field("exceptionType") == expected.exceptionType)
        #expect(entry.field("watchdogEvent") == expected.event)
        #expect(entry.field("blamedCause") == expected.cause)
        #expect(entry.field("cpuInterpretation") == expected.cpu)
        #expect((entry.field("partial") == "true") == expected.partial)
        #expect(entry.line >= 1 && entry.endLine >= entry.line)

        let classifier = try #require(Self.classifier)
        let scratch = classifier.makeScratch()
        let result = try #require(classifier.classify(text: entry.message, isCrashReport: true, scratch: scratch), "not classified:\n\(entry.message)")
        #expect(result.rule.id == expected.rule, "\(entry.message)")
        #expect(result.category.id == expected.category)
    }

    /// Issue 24: a headline names where it crashed: the thread, the first frame past the trap and throw
    /// machinery, and whose binary that is. Expectations from what the fixtures print.
    @Test func theCrashPlaceIsNamed() throws {
        let trap = try #require(CrashFixtures.entries("crash-swift-trap-ios16.crash").first)
        #expect(trap.field("crashingThread") == "the main thread")
        #expect(trap.field("crashingBinary") == "the app (iOSCrashingTest)")
        #expect(trap.field("crashingFrame")?.hasPrefix("iOSCrashingTest") == true)
        let exception = try #require(CrashFixtures.entries("crash-coredata-exception-ios13-excerpt.crash").first)
        #expect(exception.field("crashingBinary") == "system framework CoreData")
        // The API called: the outermost Core Data frame of the run (the excerpt holds two).
        #expect(exception.field("persistenceCall") == "CoreData  -[NSPersistentStoreCoordinator _introspectLastErrorAndThrow]")
        // A process the system killed did not crash anywhere.
        let killed = try #require(CrashReportReader.entries(fromDocument: Array(try Data(contentsOf: TestSupport.packageRoot
            .appendingPathComponent("Samples/crash/dead10cc-sqlite.crash"))), source: "k.crash").first)
        #expect(killed.field("crashingFrame") == nil && killed.field("crashingThread") == nil)
        #expect(CrashPlace.binaryKind("Realm", appName: "Notes") == "third-party framework Realm")
        #expect(CrashPlace.binaryKind("UIKitCore", appName: "Notes") == "system framework UIKitCore")
        #expect(CrashPlace.binaryKind("libsqlite3.dylib", appName: nil) == "system framework libsqlite3.dylib")
        #expect(CrashPlace.binaryKind("Notes", appName: "Notes") == "the app (Notes)")
    }

    /// iOS 14.0.x MetricKit put the binary's load address in `offsetIntoBinaryTextSegment` (the fixture's
    /// frames say `offsetIntoBinaryTextSegment: 6859616256, address: 6859816880`): the offset shown is
    /// `address` minus the load address, so the frame can be symbolicated.
    @Test func iOS14MetricKitLoadAddressesBecomeOffsets() throws {
        let entries = try CrashFixtures.entries("metrickit-two-crashes-ios14.json")
        let frames = entries.compactMap { $0.field("mainThreadFrames") ?? $0.field("crashedThreadFrames") }.joined(separator: "; ")
        #expect(frames.contains("libswiftCore.dylib + 200624"), "\(frames)")
        #expect(!frames.contains("6859616256"))
        #expect(MetricKitReader.realOffset(6859616256, address: 6859816880) == 200624)
        // An ordinary offset, and a large value above the address, are kept as they are.
        #expect(MetricKitReader.realOffset(41040, address: 4303609936) == 41040)
        #expect(MetricKitReader.realOffset(1 << 40, address: 5) == 1 << 40)
        #expect(MetricKitReader.realOffset(nil, address: 5) == nil)
    }

    @Test func multipleReportsInOnePayloadBecomeSeparateEntries() throws {
        #expect(try CrashFixtures.entries("metrickit-two-crashes-ios14.json").count == 2)
        let simulated = try CrashFixtures.entries("metrickit-xcode-simulated-macos13.json")
        #expect(simulated.map { $0.field("diagnosticType") } == ["diskWriteException", "hang", "crash", "cpuException", "appLaunch"])
        // Each diagnostic spans its own lines, in document order.
        for (previous, next) in zip(simulated, simulated.dropFirst()) { #expect(previous.endLine < next.line) }
    }

    @Test func everyFixtureLooksLikeACrashReport() throws {
        for name in CrashFixtures.all {
            let bytes = try CrashFixtures.bytes(name)
            #expect(CrashReportReader.looksLikeCrashReport(bytes.prefix(65536)[...]), "\(name)")
        }
    }
}
