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

    @Option(name: .long, help: "Output format: \(FindingsFormat.allNames).", completion: .list(FindingsFormat.allCases.map(\.rawValue)))
    var format: String = "text"

    @Flag(name: .long, help: "Also report entries no rule classified (category null).")
    var all = false

    @Option(name: .long, help: "Report only findings at or above this severity: \(Severity.allNames).", completion: .list(Severity.allCases.map(\.name)))
    var minSeverity: String = "debug"

    @Option(name: .long, help: "Exit 1 when a finding at or above this severity exists.", completion: .list(Severity.allCases.map(\.name)))
    var failOn: String?

    @Option(name: .long, help: "Skip detection and read every source as: auto, \(InputFormat.allNames).", completion: .list(["auto"] + InputFormat.allCases.map(\.rawValue)))
    var inputFormat: String = "auto"

    @Option(name: .long, help: "Threads used to classify large inputs (default: the number of CPU cores).")
    var threads: Int?

    @Option(name: .long, help: "Colour in text output: auto (on a terminal, unless NO_COLOR is set), always, never.", completion: .list(["auto", "always", "never"]))
    var color: String = "auto"

    @OptionGroup var appOption: AppOption

    @OptionGroup var rules: RuleOptions

    func validate() throws {
        guard FindingsFormat(rawValue: format.lowercased()) != nil else { throw ValidationError("unknown --format '\(format)' (use \(FindingsFormat.allNames))") }
        guard Severity(name: minSeverity) != nil else { throw ValidationError("unknown --min-severity '\(minSeverity)' (use \(Severity.allNames))") }
        if let failOn, Severity(name: failOn) == nil { throw ValidationError("unknown --fail-on '\(failOn)' (use \(Severity.allNames))") }
        guard inputFormat.lowercased() == "auto" || InputFormat(rawValue: inputFormat.lowercased()) != nil else {
            throw ValidationError("unknown --input-format '\(inputFormat)' (use auto, \(InputFormat.allNames))")
        }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads takes a number from 1 to 256") }
        guard ["auto", "always", "never"].contains(color.lowercased()) else { throw ValidationError("unknown --color '\(color)' (use auto, always, never)") }
    }

    func run() throws {
        let ruleSet = try rules.loadRuleSet()
        let classifier = try Classifier(ruleSet: ruleSet)
        var options = ClassifyRun.Options()
        options.forcedFormat = InputFormat(rawValue: inputFormat.lowercased())
        options.includeUnclassified = all
        options.minimumSeverity = Severity(name: minSeverity) ?? .debug
        options.threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
        ProcessSetup.tuneMalloc(threads: options.threads)
        // Check everything first (files are opened one at a time as they are read): a missing file fails
        // before any output is written.
        let inputs = try SysdiagnoseInputs.take(files.isEmpty ? ["-"] : files, app: appOption.app)
        let paths = inputs.otherPaths.isEmpty ? [] : try InputFolders.expandForRun(inputs.otherPaths)
        let sources: [any ByteSource] = inputs.sources + (try paths.map { try FileByteSource(path: $0) })
        inputs.printNotes()
        let sink = OutputSink()
        let reporter = FindingsFormat(rawValue: format.lowercased())!.makeWriter(sink: sink, color: useColor)
        let summary = try ClassifyRun(classifier: classifier, options: options).run(sources: sources, reporter: reporter)
        rules.warnAboutLimitedPatterns(ruleSet)
        if let failOn, let threshold = Severity(name: failOn), let highest = summary.highestSeverity, highest >= threshold {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    private var useColor: Bool {
        switch color.lowercased() {
        case "always": return true
        case "never": return false
        default:
            // no-color.org: NO_COLOR disables colour when it is set to a non-empty value.
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return isatty(1) == 1
        }
    }
}
