import ArgumentParser
import CDLogCore
import CDLogKit
import CLISupport
import Foundation

/// `cdlog aggregate PATH…`: findings over many tickets, counted by fingerprint × app version × OS.
struct AggregateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggregate",
        abstract: "Count findings over many tickets by fingerprint, app version and OS (cdlog's OTLP or JSON Lines outputs, or raw logs and crash reports).",
        discussion: "Folders are walked (hidden files and folders left out). Exit codes: 0 success, 2 bad usage or unreadable input.")

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, markdown, json
        init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    }

    @Argument(help: "Files or folders: outputs of `cdlog classify --format otlp` or `--format jsonl`, or logs and crash reports.", completion: .file())
    var paths: [String]

    @Option(name: .long, help: "Output format.")
    var format: Format = .text

    @OptionGroup var rules: RuleOptions

    func run() throws {
        let files = try Self.files(in: paths)
        let aggregator = Aggregator(classifier: try Classifier(ruleSet: try rules.loadRuleSet(examples: false)))
        for file in files { try aggregator.add(file: file) }
        let sink = OutputSink()
        switch format {
        case .json: try sink.write(AggregateRenderer.json(aggregator))
        case .markdown: try sink.write(visibleControlCharacters(AggregateRenderer.markdown(aggregator)))
        case .text: try sink.write(visibleControlCharacters(AggregateRenderer.text(aggregator)))
        }
        try sink.flush()
    }

    /// The regular files named, and those under the folders named (sorted, hidden ones left out).
    static func files(in paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw ToolFailure("cannot open \(path): no such file or directory") }
            guard isDirectory.boolValue else { files.append(path); continue }
            guard let walker = FileManager.default.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { throw ToolFailure("cannot read \(path)") }
            var found: [String] = []
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                found.append(url.path)
            }
            if found.isEmpty { throw ToolFailure("no file found in \(path)") }
            files += found.sorted()
        }
        return files
    }
}
