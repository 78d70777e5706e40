import ArgumentParser
import CDLogCore
import CDLogKit
import CLISupport
import Foundation
import Sysdiagnose
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify console logs and crash reports (files, or stdin when none or '-' is given).")

    @Argument(help: "Log files, crash reports, MetricKit payloads, folders of them, sysdiagnoses (.tar.gz or extracted); '-' or nothing reads stdin.", completion: .file())
    var files: [String] = []

    @Option(name: .long, help: "Output format.")
    var format: FindingsFormat = .text

    @Flag(name: .long, help: "Also report entries no rule classified (category null).")
    var all = false

    @Option(name: .long, help: "Report only findings at or above this severity (default: debug).")
    var minSeverity: Severity?

    @Option(name: .long, help: "Exit 1 when a finding at or above this severity exists.")
    var failOn: Severity?

    @OptionGroup var reading: ReadingOptions

    @OptionGroup var resource: ResourceOptions

    @Option(name: .long, help: "Colour in text output; auto colours a terminal unless NO_COLOR is set.")
    var color: ColorChoice = .auto

    @OptionGroup var appOption: AppOption

    @OptionGroup var rules: RuleOptions

    func validate() throws {
        try resource.requireOTLP(format == .otlp)
    }

    func run() throws {
        let ruleSet = try rules.loadRuleSet(examples: false)
        let classifier = try Classifier(ruleSet: ruleSet)
        var options = ClassifyRun.Options()
        options.forcedFormat = reading.inputFormat.forcedFormat
        options.includeUnclassified = all
        options.minimumSeverity = minSeverity ?? .debug
        options.threads = reading.threadCount
        ProcessSetup.tuneMalloc(threads: options.threads)
        // Check everything first (files are opened one at a time as they are read): a missing file fails
        // before any output is written.
        let inputs = try SysdiagnoseInputs.take(files.isEmpty ? ["-"] : files, app: appOption.app)
        let paths = inputs.otherPaths.isEmpty ? [] : try InputFolders.expandForRun(inputs.otherPaths)
        let sources: [any ByteSource] = inputs.sources + (try paths.map { try FileByteSource(path: $0) })
        inputs.printNotes()
        let sink = OutputSink()
        let writer = format.makeWriter(sink: sink, color: color.colorsStandardOutput, resource: resource.pairs)
        let summary = try ClassifyRun(classifier: classifier, options: options).run(sources: sources, reporter: writer)
        rules.warnAboutLimitedPatterns(ruleSet)
        if let failOn, let highest = summary.highestSeverity, highest >= failOn {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}
