import CDLogCore
@_spi(Testing) @testable import CDLogKit
import CScan
import Foundation
import Testing

/// Quiet entries (`QuietEntrySkipper`, the splitter's `EntrySkipper`) are counted, not built: the splitter and `ClassifyRun`
/// must give exactly what building and classifying every entry gives. These inputs mix quiet Xcode-console
/// lines with the samples' Core Data lines, and with what could end a quiet entry early or late:
/// continuation lines (some holding a literal), blank lines, CRLF endings, a pasted crash report,
/// overlong lines, lines whose literal sits in the prefix only, block and read boundaries.
@Suite struct QuietEntryTests {
    static let prefix = "2024-03-01 10:00:00.012995+0100 MyApp[1234:567890] "
    /// Lines no rule can match (the benchmark's noise), one whose literal-looking text is in the
    /// process name only, and one whose literals admit no rule (a URL timeout without CloudKit: the
    /// rule that has its literals requires a CloudKit word).
    static let quietLines = [
        prefix + urlTimeout,
        prefix + "[UIKitCore] Snapshotting a view (0x1707a0ca6e, UIKeyboardImpl) that has not been rendered",
        prefix + "Ignoring user defaults key AppleLanguages (cache 4796da1dac)",
        prefix + "[ImageCache] decoded image 49798x49798 for key thumb-171a2a73ed in 3ms",
        prefix + "ユーザー設定を読み込みました: テーマ=ダーク, 言語=日本語 (83321)",
        "2024-03-01 10:00:00.1+01:00 CoreData[1:2] [Backgrounding] scene did enter background",
        prefix + "x",
    ]
    static let urlTimeout = "Task <4A1C0F7E-2B4D-4C1E-9F0A-6D2E8B3C5A71>.<3> finished with error [-1001] "
        + "Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\""
    static let loudLines = [
        prefix + "CloudKit: " + urlTimeout,
        prefix + "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 \"x\"",
        prefix + "CoreData+CloudKit: -[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:](2200): error: CKErrorDomain Code=9",
    ]

    /// A log of `count` lines drawn from the quiet and loud lines, the samples' lines and the troublemakers.
    static func mixedLog(seed: UInt64, count: Int) throws -> [UInt8] {
        var random = SeededRandom(state: seed)
        let samples = try ["merge-conflicts.log", "no-icloud-account.log", "readonly-history.log"].flatMap(ThreadEquivalenceTests.sampleLines)
        var lines: [String] = []
        for _ in 0..<count {
            switch Int.random(in: 0..<40, using: &random) {
            case 0..<24: lines.append(quietLines.randomElement(using: &random)!)
            case 24..<28:
                // Numbered, so that they do not fold as echoes of each other.
                lines.append(loudLines.randomElement(using: &random)! + " #\(Int.random(in: 0..<1_000_000, using: &random))")
            case 28..<32: lines.append(samples.randomElement(using: &random)!)
            case 32: lines.append("    continuation of the entry above")
            case 33: lines.append("    Error Domain=NSCocoaErrorDomain Code=134110 in a continuation")
            case 34: lines.append("")
            case 35: lines.append("   \t")
            case 36: lines.append(String(repeating: "q", count: Int.random(in: 60...90, using: &random)))
            case 37: lines.append(prefix + String(repeating: "z", count: Int.random(in: 10...40, using: &random)))
            case 38 where Int.random(in: 0..<8, using: &random) == 0: lines.append(contentsOf: ThreadEquivalenceTests.crashLines)
            default: lines.append(prefix + "CoreData: annotation: Connecting to sqlite database file at \"/x.sqlite\"")
            }
        }
        let newline = Int.random(in: 0..<3, using: &random) == 0 ? "\r\n" : "\n"
        return Array((lines.joined(separator: newline) + (Bool.random(using: &random) ? newline : "")).utf8)
    }

    /// Splits `bytes` with or without skipping quiet entries: the entries emitted, each with its number
    /// among all entries, and how many were skipped.
    static func split(_ bytes: [UInt8], skipping: Bool, maxLineBytes: Int, chunkSize: Int,
                      blockSize: Int = 4096) throws -> (entries: [(index: Int, entry: Entry)], skipped: Int) {
        let reader = LineReader(source: MemoryByteSource(name: "t", bytes: bytes, chunkSize: chunkSize),
                                blockSize: blockSize, maxLineBytes: maxLineBytes)
        var splitter = try EntrySplitter(reader: reader, forcedFormat: .nslog)
        final class Counter { var entries = 0, skipped = 0 }
        let counter = Counter()
        if skipping {
            splitter.skipper = QuietEntrySkipper(gate: TestSupport.classifier.quietEntryGate!,
                                                               scratch: TestSupport.classifier.makeScratch()) { count in
                counter.entries += count
                counter.skipped += count
            }
        }
        var result: [(Int, Entry)] = []
        try splitter.forEachEntry { raw in
            counter.entries += 1
            result.append((counter.entries, raw.makeEntry(source: "t")))
        }
        return (result, counter.skipped)
    }

    static func describe(_ entry: Entry) -> String {
        "\(entry.line)-\(entry.endLine) t=\(entry.truncated) \(entry.timestamp ?? "") \(entry.process ?? "") \(entry.message)"
    }

    /// The skipping splitter emits the entries the plain one emits, minus one-line entries whose message
    /// gets no verdict, each at the same place; and it does skip.
    @Test func skippedEntriesAreExactlyQuietOnes() throws {
        let scratch = TestSupport.classifier.makeScratch()
        var totalSkipped = 0
        for seed in 1...12 as ClosedRange<UInt64> {
            let bytes = try Self.mixedLog(seed: seed, count: 600)
            for (maxLineBytes, chunkSize) in [(1 << 20, 1 << 16), (64, 7), (100, 1000)] {
                let plain = try Self.split(bytes, skipping: false, maxLineBytes: maxLineBytes, chunkSize: chunkSize)
                let skipping = try Self.split(bytes, skipping: true, maxLineBytes: maxLineBytes, chunkSize: chunkSize)
                let label = "seed \(seed), line cap \(maxLineBytes), reads of \(chunkSize)"
                #expect(skipping.entries.count + skipping.skipped == plain.entries.count, "\(label): entries")
                let kept = Dictionary(uniqueKeysWithValues: skipping.entries.map { ($0.index, Self.describe($0.entry)) })
                for (index, entry) in plain.entries {
                    if let emitted = kept[index] {
                        #expect(emitted == Self.describe(entry), "\(label): entry \(index)")
                    } else {
                        #expect(entry.line == entry.endLine && !entry.truncated, "\(label): skipped entry \(index) spans lines")
                        #expect(TestSupport.classifier.classify(text: entry.message, scratch: scratch) == nil,
                                "\(label): skipped entry \(index) has a verdict: \(entry.message)")
                    }
                }
                totalSkipped += skipping.skipped
            }
        }
        #expect(totalSkipped > 2_000, "quiet entries were skipped (\(totalSkipped))")
    }

    /// Whole runs, 1 and 2 threads, small blocks: the same findings and summary as building every entry.
    @Test func classifyRunsGiveTheOutputOfBuildingEveryEntry() throws {
        for seed in 20...27 as ClosedRange<UInt64> {
            let bytes = try Self.mixedLog(seed: seed, count: 1_500)
            // The format is given: detection reads a log that starts with a pasted report as a crash report.
            let reference = try ThreadEquivalenceTests.run(bytes, threads: 1, all: false, skipsQuietEntries: false, format: .nslog)
            #expect(reference.count > 50, "seed \(seed): the log has findings")
            for threads in [1, 2] {
                let skipping = try ThreadEquivalenceTests.run(bytes, threads: threads, all: false, format: .nslog)
                let firstDifference = zip(skipping, reference).first { $0 != $1 }.map { "\n  \($0.0.prefix(300))\n  \($0.1.prefix(300))" } ?? ""
                #expect(skipping == reference, "seed \(seed), \(threads) threads\(firstDifference)")
            }
        }
    }

    /// Whether the quiet walk's gate admits some rule for `text`.
    static func gateAdmits(_ text: String, gate: QuietEntryGate, scratch: Classifier.Scratch) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            gate.scanner.withScanRoom { _, room, capacity in
                cscan_gate_admits(gate.gate, scratch.prefilter.gateMarks, b.baseAddress, b.count, b.count, room, capacity) != 0
            }
        }
    }

    /// The gate admits every message that gets a verdict (every rule example, the samples' lines), for the
    /// catalog as loaded and tuned to a sample; and it does turn away messages that hold literals.
    @Test func theGateAdmitsEveryMessageWithAVerdict() throws {
        let base = TestSupport.classifier
        let texts = base.ruleSet.rules.flatMap { $0.matchExamples.map(\.text) + $0.nomatchExamples.map(\.text) }
            + (try ["merge-conflicts.log", "no-icloud-account.log", "readonly-history.log"].flatMap(ThreadEquivalenceTests.sampleLines))
            + [Self.urlTimeout, "CloudKit " + Self.urlTimeout, Self.urlTimeout + " (CloudKit)"]
        let sample = Array(texts.prefix(80).joined(separator: "\n").utf8)
        for classifier in [base, sample.withUnsafeBytes { base.tuned(toSample: $0) }] {
            let gate = try #require(classifier.quietEntryGate)
            let scratch = classifier.makeScratch()
            var turnedAway = 0
            for text in texts {
                let admitted = Self.gateAdmits(text, gate: gate, scratch: scratch)
                var bytes = Array(text.utf8)
                let hasLiterals = bytes.withUnsafeMutableBytes { scratch.prefilterTables.scan(UnsafeRawBufferPointer($0), scratch.prefilter) }
                if let verdict = classifier.classify(text: text, scratch: scratch) {
                    // The stack rules are tried outside the prefilter, on entries of two lines or more,
                    // which the skipper never skips (it skips one-line entries only).
                    if classifier.stackRules.contains(where: { $0 === verdict.rule || $0.id == verdict.rule.id }) {
                        #expect(text.contains("\n"), "a stack rule's verdict on one line: \(text)")
                    } else {
                        #expect(admitted, "\(verdict.rule.id) matches, the gate turns it away: \(text)")
                    }
                }
                if hasLiterals && !admitted { turnedAway += 1 }
            }
            #expect(turnedAway > 1, "messages with literals that admit no rule (\(turnedAway))")
            #expect(!Self.gateAdmits(Self.urlTimeout, gate: gate, scratch: scratch), "no CloudKit word")
            #expect(Self.gateAdmits("CloudKit " + Self.urlTimeout, gate: gate, scratch: scratch), "the required word first")
            #expect(Self.gateAdmits(Self.urlTimeout + " (CloudKit)", gate: gate, scratch: scratch), "the required word last")
            #expect(!Self.gateAdmits("", gate: gate, scratch: scratch))
        }
    }

    /// The C walk on its own: a quiet entry is confirmed only by a header line after it, a line that
    /// admits a rule stops the walk (and says so), and neither a line without its `\n` nor one over the
    /// cap is looked at.
    @Test func theWalkStopsWhereItMust() throws {
        let gate = TestSupport.classifier.quietEntryGate!
        let scratch = TestSupport.classifier.makeScratch()
        func walk(message: String, rest: String, maxLine: Int = 1 << 20) -> (lines: Int, bytes: Int, loud: Bool) {
            var message = Array(message.utf8), rest = Array(rest.utf8)
            var bytes = 0
            var loud: Int32 = 0
            let lines = message.withUnsafeMutableBufferPointer { m in
                rest.withUnsafeMutableBufferPointer { r in
                    gate.scanner.withScanRoom { _, room, capacity in
                        cscan_skip_quiet_lines(gate.gate, scratch.prefilter.gateMarks, room, capacity, cscan_nslog_header,
                                               m.baseAddress, m.count, m.count, r.baseAddress, r.count, maxLine, &bytes, &loud)
                    }
                }
            }
            return (lines, bytes, loud != 0)
        }
        let quiet = Self.quietLines[0], loud = Self.loudLines[0]
        #expect(walk(message: "Ignoring user defaults", rest: quiet + "\n" + quiet + "\n" + quiet + "\n").lines == 2)
        #expect(walk(message: "Ignoring user defaults", rest: quiet + "\n" + quiet + "\n" + quiet + "\n").bytes == 2 * (quiet.utf8.count + 1))
        #expect(walk(message: "Ignoring user defaults", rest: quiet + "\n" + quiet).lines == 0, "the last line has no newline")
        #expect(walk(message: "Ignoring user defaults", rest: "").lines == -1, "nothing confirms the entry")
        #expect(walk(message: "Ignoring user defaults", rest: "    more\n" + quiet + "\n").lines == -1, "a continuation line")
        #expect(walk(message: "Ignoring user defaults", rest: "\n" + quiet + "\n").lines == -1, "a blank line")
        #expect(walk(message: "Error Domain=NSCocoaErrorDomain Code=134110", rest: quiet + "\n").lines == -1, "a loud message")
        #expect(walk(message: Self.urlTimeout, rest: quiet + "\n" + quiet + "\n").lines == 1, "literals that admit no rule")
        let stopped = walk(message: "Ignoring user defaults", rest: quiet + "\r\n" + loud + "\r\n" + quiet + "\r\n")
        #expect(stopped.lines == 1 && stopped.loud, "the line before the loud one is skipped; the walk stops at the loud one")
        let capped = walk(message: "Ignoring user defaults", rest: quiet + "\n" + quiet + "\n", maxLine: 40)
        #expect(capped.lines == -1, "a line over the cap is not looked at")
    }
}

/// Short `require` literals that no pattern needs are searched for on demand, not scanned: the verdicts
/// and the quiet walk's gate are those of scanning them.
@Suite struct OnDemandLiteralTests {
    @Test func shortRequireLiteralsAdmitTheirRulesWithoutBeingScanned() throws {
        let yaml = """
        rules:
          - id: t.misuse
            title: Misuse
            category: concurrency
            severity: error
            patterns: ['API Misuse: ']
            require: ['PSC|coordinator']
          - id: t.caseless
            title: Caseless
            category: store
            severity: error
            patterns: ['(?i)disk full']
            require: ['(?i)Q7z']
        """
        let ruleSet = try RuleEngineTests.load(yaml)
        let prefilter = Prefilter(patterns: ruleSet.rules.map(\.patterns), required: ruleSet.rules.map(\.required))
        #expect(prefilter.onDemandCount == 2, "PSC and q7z; `coordinator` is long enough to scan")
        #expect(prefilter.statistics.contains("0 searched for alone, 2 on demand"), "\(prefilter.statistics)")
        let classifier = try Classifier(ruleSet: ruleSet)
        let gate = try #require(classifier.quietEntryGate)
        let scratch = classifier.makeScratch()
        let cases: [(String, String?)] = [
            ("API Misuse: store PSC = 0x0", "t.misuse"), ("PSC first, then API Misuse: x", "t.misuse"),
            ("API Misuse: a coordinator", "t.misuse"), ("API Misuse: nothing", nil),
            ("API Misuse: P S C", nil), ("DISK FULL on q7Z", "t.caseless"), ("disk full", nil), ("PSC coordinator Q7z", nil),
        ]
        for (text, expected) in cases {
            #expect(classifier.classify(text: text, scratch: scratch)?.rule.id == expected, "\(text)")
            #expect(QuietEntryTests.gateAdmits(text, gate: gate, scratch: scratch) == (expected != nil), "gate: \(text)")
        }
    }
}

/// Issue 26: a run that also wants some unclassified entries (`cdlog report`'s appendix) skips the rest
/// unbuilt when its classifier's gate admits the wanted literals (`Classifier.admitting`): it reports
/// exactly what building every entry reports, the wanted ones included.
@Suite struct AdmittingGateTests {
    static let literals: [[UInt8]] = [Array("CoreData".utf8), Array("zzq-appendix-word".utf8), Array("com.apple.coredata".utf8)]

    static func run(_ text: String, classifier: Classifier, skipping: Bool, admits: Bool, threads: Int) throws -> [String] {
        var options = ClassifyRun.Options()
        options.forcedFormat = .nslog
        options.threads = threads
        options.blockSize = 4096
        options.includeUnclassified = true
        options.unclassifiedLiterals = LiteralScanner(literals: literals.map { (bytes: $0, caseless: false) })
        options.classifierAdmitsUnclassifiedLiterals = admits
        options.skipsQuietEntries = skipping
        let reporter = TestSupport.CollectingWriter()
        let summary = try ClassifyRun(classifier: classifier, options: options)
            .run(sources: [MemoryByteSource(name: "t", bytes: Array(text.utf8), chunkSize: 1000)], reporter: reporter)
        return reporter.entries.map { "\($0.entry.line) \($0.classification?.rule.id ?? "-") \($0.entry.message)" }
            + ["entries \(summary.entries) classified \(summary.classified)"]
    }

    static func log(lines: Int) -> String {
        let messages = ["[UI] button tapped", "[Net] GET /feed 200", "a zzq-appendix-word line no rule knows",
                        "CoreData: error: -executeRequest: encountered exception = I/O error for database at /x.sqlite.  SQLite error code:10, NSSQLiteErrorDomain=10",
                        "queue com.apple.coredata.sql is busy", "plain words only"]
        return (0..<lines).map { i in
            let process = i % 5 == 0 ? "zzq-appendix-wordApp" : "Notes"
            return "2024-07-02 08:13:42.\(String(format: "%06d", i)) +0800 \(process)[1422:61234] \(messages[(i * 7 + i / 3) % messages.count])"
        }.joined(separator: "\n") + "\n"
    }

    @Test func reportsWhatBuildingEveryEntryReports() throws {
        let gated = try #require(try Classifier.admitting(Self.literals, ruleSet: TestSupport.classifier.ruleSet))
        #expect(gated.admittedLiterals == Self.literals)
        let text = Self.log(lines: 2_000)
        for threads in [1, 2] {
            let reference = try Self.run(text, classifier: gated, skipping: false, admits: true, threads: threads)
            let skipping = try Self.run(text, classifier: gated, skipping: true, admits: true, threads: threads)
            #expect(skipping == reference, "\(threads) threads")
            // The wanted lines are there (literal in the message; a process name does not count).
            #expect(reference.filter { $0.contains("zzq-appendix-word line") }.count > 100)
            #expect(!reference.contains { $0.contains("button tapped") })
        }
    }

    /// The check above can fail: with a gate that does not admit the literals, skipping loses lines.
    @Test func aGateWithoutTheLiteralsWouldLoseWantedLines() throws {
        let text = Self.log(lines: 600)
        let reference = try Self.run(text, classifier: TestSupport.classifier, skipping: false, admits: false, threads: 1)
        let wrong = try Self.run(text, classifier: TestSupport.classifier, skipping: true, admits: true, threads: 1)
        #expect(wrong != reference)
        #expect(!wrong.contains { $0.contains("zzq-appendix-word line") })
    }
}
