import CDLogCore
import CDLogKit
import StoreInspection
import Sysdiagnose

/// What `cdlog report` does, without the command line: classifies the sources, inspects the stores,
/// evaluates the diagnosis catalog and assembles a `ReportDocument`. Never prints.
///
/// Contract: deterministic — the same inputs give the same document (no clock, no random order,
/// dictionaries are always read in sorted or insertion order); with `redact`, every text that
/// reaches the document passes through one `Redactor` (input names first, then excerpts in input order,
/// each redacted before it is cut, then the rest of the document). Throws `ToolFailure` for an
/// unreadable or invalid source or store (one line), `OutputClosed` never (nothing is written).
public struct ReportBuilder {
    public struct Options: Sendable {
        public var redact = false
        public var limits = ReportLimits()
        /// Timeline rows below this severity are left out (they still count).
        public var timelineMinimumSeverity: Severity = .debug
        public var forcedFormat: InputFormat?
        public var threads = 1
        /// Lines that can be neither classified nor appendix material are counted without being built
        /// (the quiet-entry walk). False builds every entry: the same report, slower (the reference the
        /// tests compare with).
        public var skipsQuietEntries = true
        public init() {}
    }

    public let classifier: Classifier
    public let catalog: DiagnosisCatalog
    public let options: Options

    public init(classifier: Classifier, catalog: DiagnosisCatalog, options: Options = Options()) {
        self.classifier = classifier
        self.catalog = catalog
        self.options = options
    }

    /// The classifier a report runs: `ruleSet`'s, with a quiet gate that also admits the literals that make
    /// an unclassified line appendix or evidence material (`Classifier.admitting`), when such a gate can
    /// be built; the same verdicts as `Classifier(ruleSet:)`.
    public static func classifier(ruleSet: RuleSet, catalog: DiagnosisCatalog) throws -> Classifier {
        if let literals = appendixLiterals(catalog), let gated = try Classifier.admitting(literals, ruleSet: ruleSet) { return gated }
        return try Classifier(ruleSet: ruleSet)
    }

    /// What makes an unclassified entry wanted: the appendix's Core Data / CloudKit words and subsystems,
    /// and the literals of the diagnoses' message conditions (nil: every entry is wanted).
    static func appendixLiterals(_ catalog: DiagnosisCatalog) -> [[UInt8]]? {
        catalog.unclassifiedLiterals(extra: ReportCollector.relevantLiterals + ReportCollector.relevantSubsystems)
    }

    /// Inspects every store of `path` (a store file or a folder) with walcheck's engine.
    public static func inspectStores(at path: String) throws -> [StoreFacts] {
        try StoreLocator.locate(path).map { StoreFacts(report: try StoreInspector.inspect($0)) }
    }

    /// `sysdiagnoses`: what the sysdiagnoses among the inputs said (their reports are among `sources`).
    /// `findings`, when given, also gets every classified entry as it is read (`--format otlp`).
    public func build(sources: [any ByteSource], stores: [StoreFacts], sysdiagnoses: [SysdiagnoseFacts] = [],
                      findings: (any FindingWriter)? = nil) throws -> ReportDocument {
        // One redactor for the whole document. Excerpts are redacted as they are collected, before they
        // are cut; input names go first, so that placeholders are numbered from the top of the report.
        let redactor = options.redact ? Redactor() : nil
        for source in sources { _ = redactor?.redact(source.name) }
        for store in stores { _ = redactor?.redact(store.path) }
        let evidence = EvidenceCollector(catalog: catalog, keep: options.limits.citationsPerCondition, cutter: ExcerptCutter(redactor: redactor))
        let collector = ReportCollector(evidence: evidence, limits: options.limits, minimumSeverity: options.timelineMinimumSeverity)
        collector.tee = findings
        var runOptions = ClassifyRun.Options()
        runOptions.includeUnclassified = true
        let literals = Self.appendixLiterals(catalog)
        runOptions.unclassifiedLiterals = literals.map { LiteralScanner(literals: $0.map { (bytes: $0, caseless: false) }) }
        runOptions.forcedFormat = options.forcedFormat
        runOptions.threads = options.threads
        // With a classifier whose quiet gate also admits the appendix's literals (`classifier(ruleSet:
        // catalog:)`), the lines that are neither classified nor appendix material are skipped unbuilt,
        // as `classify` skips them.
        runOptions.classifierAdmitsUnclassifiedLiterals = literals != nil && classifier.admittedLiterals == literals
        runOptions.skipsQuietEntries = options.skipsQuietEntries
        let summary = try ClassifyRun(classifier: classifier, options: runOptions).run(sources: sources, reporter: collector)
        let diagnoses = Correlator.evaluate(catalog, evidence: evidence, stores: stores)
        var document = assemble(collector: collector, summary: summary, diagnoses: diagnoses, stores: stores, redactor: redactor)
        if !sysdiagnoses.isEmpty { Self.addSysdiagnoses(sysdiagnoses, to: &document, redactor: redactor) }
        return document
    }

    /// A sysdiagnose's device, OS, capture and logarchive in the environment; what its log cannot show, or
    /// was not read, in the evidence gaps; the commands that extract the log's window.
    static func addSysdiagnoses(_ all: [SysdiagnoseFacts], to document: inout ReportDocument, redactor: Redactor?) {
        func r(_ s: String) -> String { redactor?.redact(s) ?? s }
        func has(_ label: String) -> Bool { document.environment.contains { $0.label == label } }
        for facts in all {
            let source = r(facts.path)
            var found: [ReportDocument.Fact] = []
            found.append(.init(label: "Sysdiagnose", value: r(facts.folderName ?? facts.path) + (facts.captured.map { ", taken \($0)" } ?? ""), source: source))
            if let version = facts.productVersion {
                let os = (facts.productName ?? "OS") + " " + version + (facts.productBuild.map { " (\($0))" } ?? "")
                if !document.environment.contains(where: { $0.label == "OS" && $0.value == os }) {
                    found.append(.init(label: has("OS") ? "OS (sysdiagnose)" : "OS", value: os, source: source + ":SystemVersion.plist"))
                }
            } else if let build = facts.productBuild {
                found.append(.init(label: "OS build (sysdiagnose)", value: build, source: source))
            }
            if !has("Device"), let device = facts.deviceModel ?? facts.deviceClass {
                found.append(.init(label: "Device", value: device, source: source))
            }
            if let app = facts.app {
                let kinds = Dictionary(grouping: facts.reports, by: \.kind).sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.value.count) \($0.key.rawValue)" }.joined(separator: ", ")
                found.append(.init(label: "Reports of \(r(app))", value: (kinds.isEmpty ? "none" : kinds) + (facts.appChoice.map { " (chosen by \($0))" } ?? "")
                                   + (facts.otherReports > 0 ? "; \(facts.otherReports) other report\(facts.otherReports == 1 ? "" : "s") not read" : ""), source: source))
            }
            if let log = facts.logArchive {
                var value = "\(log.files) tracev3 files, \(ByteCount.text(log.bytes))"
                let folders = log.folders.map { "\($0.name) \($0.files)" }.joined(separator: ", ")
                if !folders.isEmpty { value += " (\(folders))" }
                if let oldest = log.oldestFile, let newest = log.newestFile {
                    let offset = facts.capturedOffset ?? 0
                    value += "; files last written \(ISOTime.text(seconds: oldest, offset: offset)) to \(ISOTime.text(seconds: newest, offset: offset))"
                }
                if let end = log.end { value += "; collected \(ISOTime.text(seconds: end, offset: facts.capturedOffset ?? 0))" }
                found.append(.init(label: "Unified log", value: value, source: r(log.path)))
                for report in facts.reports where report.kind != .other {
                    guard let place = facts.placeInLog(report) else { continue }
                    let name = report.member.split(separator: "/").last.map(String.init) ?? report.member
                    found.append(.init(label: "\(report.kind.rawValue.capitalized) time", value: "\(report.time ?? "?") (\(r(name))): \(place)", source: nil))
                }
            }
            document.environment += found

            if let log = facts.logArchive {
                document.evidenceGaps.append(.init(
                    id: "logarchive-not-read",
                    gap: "The sysdiagnose's unified log (\(log.files) tracev3 files) was not read: cdlog does not decode tracev3, so no Core Data or CloudKit line from the device is in this report. " + SysdiagnoseFacts.logArchiveLimits,
                    how: "On a Mac, extract the app's and Core Data's lines around the crash with the commands below and give the output to cdlog report."))
                let before = facts.reports.filter { ($0.seconds ?? .infinity) < (log.oldestFile ?? -.infinity) }
                if let first = before.first {
                    document.evidenceGaps.append(.init(
                        id: "crash-before-log", gap: "The \(first.kind.rawValue) report \(r(first.member.split(separator: "/").last.map(String.init) ?? first.member)) is older than the oldest file of the sysdiagnose's log: the lines that led to it have probably rotated out.",
                        how: "Take a sysdiagnose right after the next occurrence (within minutes), or capture with log stream while reproducing."))
                }
                document.nextCommands += (facts.nextCommands ?? []).map(r)
            } else {
                document.evidenceGaps.append(.init(
                    id: "no-logarchive", gap: "The sysdiagnose \(r(facts.folderName ?? facts.path)) holds no system_logs.logarchive: the device's log around the crash is not available.",
                    how: "Take a new sysdiagnose (on iOS: both volume buttons and the side button for a second; then Settings › Privacy & Security › Analytics & Improvements › Analytics Data) and send the whole .tar.gz."))
            }
            if let app = facts.app, facts.reports.isEmpty {
                document.evidenceGaps.append(.init(
                    id: "no-app-reports", gap: "The sysdiagnose holds no crash, jetsam or resource report of \(r(app))"
                        + (facts.otherApps.isEmpty ? "." : "; apps with reports: \(facts.otherApps.map(r).joined(separator: ", ")).") ,
                    how: "Check the app name (--app takes the process name or the bundle id); a report may also have been sent to Apple and deleted, or written after the sysdiagnose was taken."))
            }
        }
    }

    // MARK: - Assembly

    private func assemble(collector: ReportCollector, summary: ClassifySummary, diagnoses: [DiagnosisResult],
                          stores: [StoreFacts], redactor: Redactor?) -> ReportDocument {
        let cutter = collector.cutter
        func r(_ s: String) -> String { redactor?.redact(s) ?? s }
        func r(_ s: String?) -> String? { s.map { redactor?.redact($0) ?? $0 } }
        func r(_ c: Citation) -> Citation {
            guard redactor != nil else { return c }
            var c = c
            c.source = r(c.source)
            c.excerpt = r(c.excerpt)
            c.fields = c.fields.map { ($0.name, r($0.value)) }
            return c
        }

        let sources = summary.sources.map { r($0) }
        let storePaths = stores.map { r($0.path) }

        // Diagnoses.
        let redactedDiagnoses = diagnoses.map { d -> DiagnosisResult in
            var d = d
            d.statement = r(d.statement)
            d.evidence = d.evidence.map { e in
                var e = e
                e.citations = e.citations.map(r)
                e.storePath = r(e.storePath)
                return e
            }
            return d
        }
        var fallback: String?, fallbackCitation: Citation?, fallbackAdvice: String?
        if diagnoses.isEmpty {
            // The headline accounts for everything the report contains: the worst classified event and the
            // worst store finding, the more severe first (a reader of a ticket may see only this line).
            let worst = collector.timeline.max { a, b in a.severity != b.severity ? a.severity < b.severity : a.order > b.order }
            let storeWorst = stores.compactMap { store -> (StoreFacts, StoreInspection.Finding)? in
                guard let finding = store.report?.findings.max(by: { $0.severity < $1.severity }) else { return nil }
                return (store, finding)
            }.max { $0.1.severity < $1.1.severity }
            let event = worst.flatMap { $0.severity >= .warning ? $0 : nil }
            let finding = storeWorst.flatMap { $0.1.severity >= .warning ? $0 : nil }
            func eventText(_ e: TimelineRow) -> String { "the most severe event is “\(r(e.first.title ?? e.first.rule ?? "?"))” (\(e.severity.name), \(e.category.id))" }
            func findingText(_ f: (StoreFacts, StoreInspection.Finding)) -> String { "the store’s most severe finding is “\(r(f.1.title))” (\(f.1.severity.name), walcheck `\(f.1.id)`)" }
            if let event, finding == nil || finding!.1.severity <= event.severity {
                fallback = "No known failure pattern matched; " + eventText(event) + (finding.map { "; " + findingText($0) } ?? "") + "."
                fallbackCitation = r(event.first)
                fallbackAdvice = event.first.rule.flatMap { classifier.ruleSet.rule(id: $0)?.advice }
            } else if let finding {
                fallback = "No known failure pattern matched; " + findingText(finding) + (event.map { "; " + eventText($0) } ?? "") + "."
                let advice: String = r(finding.1.advice)
                fallbackAdvice = advice
            } else {
                fallback = "No failure found: nothing at warning or above was classified" + (stores.isEmpty ? "." : " and no store finding is at warning or above.")
                if summary.entries > 0 && summary.classified == 0 && stores.isEmpty { fallbackAdvice = ClassifySummary.nothingRelevantHint }
            }
        }

        // Environment.
        var environment: [ReportDocument.Fact] = []
        // The environment comes from the crash report the headline cites (else the first one); the other
        // reports are listed, so a ticket never shows one app's headline over another app's environment.
        let citedCrash = diagnoses.first?.evidence.lazy.flatMap(\.citations).first { $0.isCrash }
        let headlineCrash = citedCrash.flatMap { cited in
            collector.crashes.first { $0.entry.source == cited.source && $0.entry.line == cited.line }
        } ?? collector.crashes.first
        if let crash = headlineCrash {
            let c = Citation(crash, cutter: cutter)
            let where_ = r(c.location)
            for (label, key) in [("App", "appName"), ("Bundle id", "bundleID"), ("Version", "appVersion"), ("Build", "build"),
                                 ("OS", "osVersion"), ("Device", "device"), ("Incident", "incidentID")] {
                if let v = c.field(key) { environment.append(.init(label: label, value: r(v), source: where_)) }
            }
            if let t = c.timestamp { environment.append(.init(label: "Crash time", value: t, source: where_)) }
            let others = collector.crashes.filter { !($0.entry.source == crash.entry.source && $0.entry.line == crash.entry.line) }
            if !others.isEmpty {
                let listed = others.prefix(10).map { other -> String in
                    let o = Citation(other, cutter: cutter)
                    return r(o.location) + (o.field("appName").map { " (\(r($0)))" } ?? "")
                }
                environment.append(.init(label: "Other crash reports", value: listed.joined(separator: ", ") + (others.count > 10 ? ", …" : ""), source: nil))
            }
        }
        if !collector.processes.isEmpty {
            environment.append(.init(label: "Processes in the logs", value: collector.processes.map { r($0) }.joined(separator: ", "), source: nil))
        }
        for store in stores {
            guard let report = store.report else { continue }
            let path = r(store.path)
            if let cd = report.sql?.coreData {
                if let v = cd.frameworkVersion { environment.append(.init(label: "Store framework version", value: "NSPersistenceFrameworkVersion \(v)", source: path)) }
                if let t = cd.storeType { environment.append(.init(label: "Store type", value: t, source: path)) }
                if !cd.modelVersionIdentifiers.isEmpty {
                    environment.append(.init(label: "Model version identifiers", value: cd.modelVersionIdentifiers.joined(separator: ", "), source: path))
                }
            }
            environment.append(.init(label: "SQLite", value: "\(report.database.header.journalMode) journal, \(report.database.header.pageSize)-byte pages, written by SQLite \(report.database.header.sqliteVersion ?? "?")", source: path))
        }

        // Timeline.
        var rows = collector.timeline
        let allTimed = !rows.isEmpty && rows.allSatisfy { $0.sortTime != nil }
        if allTimed {
            let sourceIndex = Dictionary(summary.sources.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            rows.sort {
                if $0.sortTime! != $1.sortTime! { return $0.sortTime! < $1.sortTime! }
                let s0 = sourceIndex[$0.first.source] ?? 0, s1 = sourceIndex[$1.first.source] ?? 0
                if s0 != s1 { return s0 < s1 }
                return $0.order < $1.order
            }
        }
        rows = rows.map { row in
            var row = row
            row.first = r(row.first)
            row.lastLocation = r(row.lastLocation)
            return row
        }

        // Crashes.
        let crashes = collector.crashes.map { crash -> ReportDocument.Crash in
            let c = r(Citation(crash, cutter: cutter))
            var facts: [ReportDocument.Fact] = []
            for (label, key) in [("Exception", "exceptionType"), ("Signal", "signal"), ("Termination", "terminationNamespace"),
                                 ("Termination code", "terminationCode"), ("Reason", "terminationReason"),
                                 ("Watchdog event", "watchdogEvent"), ("Wall-clock allowance (s)", "wallClockAllowance"),
                                 ("App CPU (s)", "appCPUSeconds"), ("CPU", "cpuInterpretation"), ("Exception name", "exceptionName"),
                                 ("Exception reason", "exceptionReason"), ("Blamed cause", "blamedCause"), ("Partial report", "partial")] {
                if let v = c.field(key) { facts.append(.init(label: label, value: v, source: nil)) }
            }
            func list(_ key: String) -> [String] { c.field(key).map { $0.components(separatedBy: "; ") } ?? [] }
            return ReportDocument.Crash(citation: c, rule: c.rule, title: c.title, severity: c.severity,
                                        headline: c.excerpt, facts: facts, blamedFrames: list("blamedFrames"),
                                        crashedThread: c.field("crashedThread"), crashedThreadFrames: list("crashedThreadFrames"),
                                        exceptionBacktrace: list("exceptionBacktrace"), mainThreadFrames: list("mainThreadFrames"), cannotTell: c.field("cannotTell").map { [$0] } ?? [])
        }

        // Stores.
        let storeDocs = stores.map { store -> ReportDocument.Store in
            var facts: [ReportDocument.Fact] = []
            func add(_ label: String, _ name: String) {
                if let v = store.formatted(name) { facts.append(.init(label: label, value: v, source: nil)) }
            }
            add("Database file", "databaseBytes")
            add("WAL file", "walBytes")
            add("WAL frames (committed)", "walFrames")
            add("Pending frames (not checkpointed)", "pendingFrames")
            add("Pending WAL bytes", "pendingBytes")
            add("Checkpoint would write", "checkpointWriteBytes")
            add("Recovery reads at next open", "recoveryBytes")
            add("WAL / database", "walToDatabaseRatio")
            var entities: [(String, Int?)] = []
            var walcheckJSON = "null"
            if let report = store.report {
                facts.append(.init(label: "Checkpoint progress", value: report.checkpoint.progress, source: nil))
                facts.append(.init(label: "wal-index", value: "\(report.walIndex.state): \(r(report.walIndex.reason))", source: nil))
                entities = report.sql?.coreData?.entities.map { ($0.name, $0.rows) } ?? []
                walcheckJSON = r(StoreInspection.ReportRenderer.json(report))
            }
            add("Pending CloudKit exports", "pendingExports")
            add("Failed CloudKit events", "failedCloudKitEvents")
            add("History transactions", "historyTransactions")
            let findings = (store.report?.findings ?? []).map { ($0.id, $0.severity, r($0.title), r($0.detail)) }
            return ReportDocument.Store(path: r(store.path), facts: facts, entities: entities, findings: findings, walcheckJSON: walcheckJSON)
        }

        // Appendix.
        let templates = collector.templates.map { t -> TemplateRow in
            var t = t
            t.template = r(t.template)
            t.example = r(t.example)
            t.firstLocation = r(t.firstLocation)
            t.lastLocation = r(t.lastLocation)
            return t
        }

        var highest = summary.highestSeverity
        for s in stores.flatMap({ $0.findings.map(\.severity) }) + diagnoses.map(\.severity) where highest.map({ s > $0 }) ?? true {
            highest = s
        }

        // Cited lines that the unified log redacted: advice that says "look at the partialErrors field" would
        // point at `<private>`; say how to get the values instead.
        let cited = redactedDiagnoses.flatMap { $0.evidence.flatMap(\.citations) } + (fallbackCitation.map { [$0] } ?? [])
            + rows.prefix(50).map(\.first)
        let redactedCitations = cited.filter { $0.excerpt.contains("<private>") || $0.fields.contains { $0.value.contains("<private>") } }
        var privateDataNote: String? = redactedCitations.isEmpty ? nil : ReportBuilder.privateDataAdvice
        // The codes the unified log left readable in those lines (an inner CKInternalErrorDomain code, say).
        if privateDataNote != nil, let codes = classifier.ruleSet.codes {
            let scratch = MatchScratch()
            var readable: [String] = []
            for citation in redactedCitations.prefix(20) {
                // The excerpt may be cut; the finding's fields (`chain`, `code`) hold the codes of the whole entry.
                var bytes = Array((citation.excerpt + "\n" + citation.fields.map(\.value).joined(separator: "\n")).utf8)
                let mentions = bytes.withUnsafeMutableBytes { codes.recognise(UnsafeRawBufferPointer($0), scratch: scratch) }
                for mention in mentions {
                    let text = "\(mention.domain) \(mention.code)" + (mention.entry.map { " (\($0.name))" } ?? "")
                    if !readable.contains(text), readable.count < 8 { readable.append(text) }
                }
                // A partial failure's per-item codes, as the finding extracted them.
                if let items = citation.fields.first(where: { $0.name == "partialErrors" })?.value {
                    let text = "per-item errors " + items
                    if !readable.contains(text), readable.count < 8 { readable.append(text) }
                }
            }
            if !readable.isEmpty { privateDataNote! += " Codes still readable in those lines: " + readable.joined(separator: ", ") + "." }
        }

        var document = ReportDocument(
            sources: sources, storePaths: storePaths, redacted: redactor != nil, redactions: redactor?.counts ?? [],
            diagnoses: redactedDiagnoses, fallbackHeadline: fallback, fallbackCitation: fallbackCitation, fallbackAdvice: fallbackAdvice,
            environment: environment, timeline: rows, timelineOrder: allTimed ? "time" : "input",
            timelineOmittedRows: collector.timelineOmittedRows, timelineOmittedEvents: collector.timelineOmittedEvents,
            timelineMinimumSeverity: options.timelineMinimumSeverity,
            entries: summary.entries, classified: summary.classified,
            byCategory: summary.byCategory.map { ($0.category, $0.count) },
            bySeverity: summary.bySeverity.map { ($0.severity, $0.count) },
            crashes: crashes, crashesOmitted: collector.crashesOmitted, stores: storeDocs,
            templates: templates, templatesOmittedLines: collector.templatesOmittedLines,
            unclassifiedRelevant: collector.unclassifiedRelevant, chart: Chart.make(collector.chart), highestSeverity: highest)
        document.privateDataNote = privateDataNote
        document.evidenceGaps = ReportBuilder.evidenceGaps(facts: collector.logFacts, stores: stores, summary: summary)
            .map { gap in var gap = gap; gap.gap = r(gap.gap); return gap }
        return document
    }

    /// What is missing for a confident diagnosis, and how to get it.
    static func evidenceGaps(facts: ReportCollector.LogFacts, stores: [StoreFacts], summary: ClassifySummary) -> [ReportDocument.EvidenceGap] {
        var gaps: [ReportDocument.EvidenceGap] = []
        func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
        let storeAreas: Set<Category> = [.initialization, .migration, .store, .watchdog, .history, .sync]
        let storeMatters = summary.byCategory.contains { storeAreas.contains($0.category) && $0.count > 0 } || !facts.crashTimes.isEmpty
        if stores.isEmpty, storeMatters {
            gaps.append(.init(id: "no-store", gap: "No store was given: the WAL's size, the frames not yet checkpointed and the store's Core Data metadata are not known.",
                              how: "Copy the store with its -wal and -shm while the app is not running (Xcode: Devices and Simulators → Download Container) and add --store PATH."))
        }
        for store in stores {
            guard let report = store.report, report.database.header.journalMode == "wal", !report.wal.present else { continue }
            gaps.append(.init(id: "store-without-wal", gap: "The store \(fileName(store.path)) is in WAL mode but came without a -wal: if it was copied while the app was running or after a kill, the transactions still in the WAL, and the figures about them, are missing (a store closed cleanly has none).",
                              how: "Copy the store's three files together (name.sqlite, name.sqlite-wal, name.sqlite-shm), while the app is not running."))
        }
        if facts.entries > 0, facts.quietFindings == 0 {
            gaps.append(.init(id: "no-debug-output", gap: "The logs hold no Core Data debug or info lines: the container's own account of setup, migration and sync was not captured.",
                              how: "Run the app with the launch arguments -com.apple.CoreData.CloudKitDebug 1 (and -com.apple.CoreData.SQLDebug 1, -com.apple.CoreData.MigrationDebug 1 for store and migration work), then capture with log stream --level debug --predicate 'subsystem == \"com.apple.coredata\" OR subsystem == \"com.apple.cloudkit\"'."))
        }
        if facts.formats.contains(.logCompact) {
            gaps.append(.init(id: "no-time-zone", gap: "A log is a log show --style compact capture: its times carry no time zone, so they cannot be lined up with a crash report's or another device's.",
                              how: "Capture with --style ndjson (or the default style), which keep the zone."))
        }
        if let earliest = facts.earliest, let latest = facts.latest,
           let crash = facts.crashTimes.first(where: { $0.time < earliest - 600 || $0.time > latest + 600 }) {
                gaps.append(.init(id: "crash-outside-logs", gap: "The crash in \(fileName(crash.source)) happened at \(Chart.clock(crash.time)), outside the logs' window (\(Chart.clock(earliest)) to \(Chart.clock(latest))): no log line shows what led to it.",
                                  how: "Capture the log around the crash's time (log collect --start, or a sysdiagnose taken right after the crash)."))
        }
        return gaps
    }

    /// What to do when cited lines hold `<private>` (the unified log's redaction, not `--redact`).
    static let privateDataAdvice = "Some cited lines hold <private>: the unified log hid those values (record names, the errors inside a partial failure, user info). To capture them, add an OSLogPreferences entry to the app's Info.plist that makes the subsystems its process logs public at debug level (com.apple.coredata included), or install Apple's CloudKit logging profile (it covers com.apple.cloudkit only), reproduce, and capture with log collect or log stream. The codes outside the <private> parts (an inner CKInternalErrorDomain code, say) are already read."
}
