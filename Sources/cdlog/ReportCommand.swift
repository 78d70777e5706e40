import ArgumentParser
import CDLogCore
import CDLogKit
import CLISupport
import Foundation
import ReportKit
import StoreInspection
import Sysdiagnose
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "One report from console logs, crash reports and a store: the likely root cause first, then the evidence.",
        discussion: "Reads the files (or stdin when none or '-' is given; with --store only and a terminal on stdin, no log is read). Exit codes: 0 success, 1 a finding at or above --fail-on, 2 bad usage or unreadable input.")

    @Argument(help: "Console logs (any supported style), crash reports, MetricKit payloads, folders of them, sysdiagnoses (.tar.gz or extracted); '-' or nothing reads stdin.", completion: .file())
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("A store file or a folder of stores to inspect (walcheck's analysis).", valueName: "PATH"), completion: .file())
    var store: String?

    @Flag(name: .customLong("follow-symlinks"), help: "With --store: read a -wal, -shm or -journal that is a symlink leaving the store's folder (by default it is reported, not read).")
    var followSymlinks = false

    @Option(name: .long, help: "Output format: a document, or otlp (every finding as an OpenTelemetry log record, then the diagnoses).")
    var format: ReportFormatChoice = .document(.markdown)

    @Flag(name: .long, help: "Replace personal data (e-mail addresses, user names in paths, record names, zone owners, device ids, container ids) with consistent placeholders.")
    var redact = false

    @Option(name: .long, help: ArgumentHelp("Write the report to FILE instead of stdout.", valueName: "FILE"), completion: .file())
    var output: String?

    @Option(name: .long, help: "Exit 1 when a classified entry, store finding or diagnosis is at or above this severity.")
    var failOn: Severity?

    @Option(name: .long, help: "Leave timeline rows below this severity out (they still count; default: debug).")
    var minSeverity: Severity?

    @Option(name: .long, help: "At most this many timeline rows (and appendix templates); the rest is summarised as 'N more'.")
    var maxRows: Int = 200

    @OptionGroup var reading: ReadingOptions

    @OptionGroup var resource: ResourceOptions

    @OptionGroup var appOption: AppOption

    @OptionGroup var rules: RuleOptions

    func validate() throws {
        guard (1...100_000).contains(maxRows) else { throw ValidationError("--max-rows takes a number from 1 to 100000") }
        try resource.requireOTLP(format == .otlp)
        // Redaction works on the rendered document; OTLP streams the findings as they are read.
        if redact && format == .otlp { throw ValidationError("--redact cannot be combined with --format otlp (the records carry the messages as read)") }
    }

    func run() throws {
        let ruleSet = try rules.loadRuleSet(examples: false)
        let catalog = try DiagnosisCatalog.embedded()
        let classifier = try ReportBuilder.classifier(ruleSet: ruleSet, catalog: catalog)
        var options = ReportBuilder.Options()
        options.redact = redact
        options.timelineMinimumSeverity = minSeverity ?? .debug
        options.limits.timelineRows = maxRows
        options.limits.templates = maxRows
        options.forcedFormat = reading.inputFormat.forcedFormat
        options.threads = reading.threadCount
        ProcessSetup.tuneMalloc(threads: options.threads)
        var paths = files
        // With --store and no file, stdin is read only when `-` is given: a pipe left open by a CI runner or a
        // parent process must not make the report wait.
        if paths.isEmpty && store == nil { paths = ["-"] }
        // Checked before anything is read: an output that would replace an input, or land in an input
        // folder (a sysdiagnose's, a folder of reports), is refused.
        var protected = ProtectedInputs(paths: paths + (store.map { [$0] } ?? []), readsStandardInput: paths.contains("-"))
        protected.folders = paths + (store.map { [$0] } ?? [])
        _ = try output.map { try OutputFile(path: $0, protecting: protected) }
        let inputs = try SysdiagnoseInputs.take(paths, app: appOption.app)
        paths = inputs.otherPaths.isEmpty ? [] : try InputFolders.expandForRun(inputs.otherPaths)
        let located = try store.map { try StoreLocator.locate($0, followSymlinks: followSymlinks) } ?? []
        protected.paths += paths + located.flatMap(\.protectedPaths)
        let outputFile = try output.map { try OutputFile(path: $0, protecting: protected) }
        // Check everything first (files are opened one at a time as they are read): a missing file fails
        // before any work is done.
        let sources: [any ByteSource] = inputs.sources + (try paths.map { try FileByteSource(path: $0) })
        inputs.printNotes()
        // The private store copy is removed on SIGINT/SIGTERM/SIGHUP too, as walcheck's is.
        if !located.isEmpty { SnapshotCopy.installInterruptCleanup() }
        let stores = try located.map { StoreFacts(report: try StoreInspector.inspect($0)) }
        let builder = ReportBuilder(classifier: classifier, catalog: catalog, options: options)
        var built: ReportDocument?
        switch format {
        case .document(let documentFormat):
            let document = try builder.build(sources: sources, stores: stores, sysdiagnoses: inputs.facts)
            built = document
            let text = documentFormat.render(document)
            if let outputFile {
                try outputFile.write(text)
            } else {
                let sink = OutputSink()
                try sink.write(text)
                try sink.flush()
            }
        case .otlp:
            let write = { (sink: OutputSink) throws in
                let writer = OTLPFindingWriter(sink: sink, resource: resource.pairs)
                let document = try builder.build(sources: sources, stores: stores, sysdiagnoses: inputs.facts, findings: writer)
                built = document
                for diagnosis in document.diagnoses {
                    try writer.report(event: "cdlog.diagnosis", severity: diagnosis.severity, body: diagnosis.statement,
                                      attributes: [("cdlog.diagnosis", diagnosis.id), ("cdlog.title", diagnosis.title)])
                }
                try writer.flush()
            }
            if let outputFile { try outputFile.write(streaming: write) } else { try write(OutputSink()) }
        }
        rules.warnAboutLimitedPatterns(ruleSet)
        guard let document = built else { return }
        if let failOn, let highest = document.highestSeverity, highest >= failOn {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}
