import ArgumentParser
import CDLogCore
import CDLogKit
import CLISupport

@main
struct CdlogMain {
    static func main() { CommandRunner.main(Cdlog.self) }
}

/// `cdlog`: the root command. Parsing and wiring only; the work is in CDLogKit.
struct Cdlog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdlog",
        abstract: "Explains Core Data, CloudKit and SwiftData console output and crash reports.",
        discussion: "Exit codes: 0 success, 1 a finding at or above --fail-on (or failing rule examples), 2 bad usage or unreadable input.",
        version: ToolVersion.current,
        subcommands: [Classify.self, ReportCommand.self, ExplainCommand.self, RulesCommand.self]
    )
}

/// `--rules DIR`, shared by every command that loads rules.
struct RuleOptions: ParsableArguments {
    @Option(name: .customLong("rules"), help: ArgumentHelp("A directory (or file) of extra rule files; repeatable. A rule with an existing id replaces it.", valueName: "DIR"), completion: .file())
    var directories: [String] = []

    func loadRuleSet() throws -> RuleSet {
        do {
            return try RuleSet.load(userDirectories: directories)
        } catch let error as RuleFileError {
            // The caret display goes to stderr after the one-line headline.
            throw ToolFailure(error.headline, detail: error.excerpt)
        }
    }

    /// After a run: one stderr line per user pattern that ran into PCRE2's backtracking limits.
    func warnAboutLimitedPatterns(_ set: RuleSet) {
        guard !directories.isEmpty else { return }
        for warning in set.matchBudgetWarnings { printError("cdlog: warning: \(warning)") }
    }
}

extension InputFolders {
    /// Folders among `paths` expanded into the logs and crash reports in them; every skipped file is named
    /// on stderr (`cdlog: note: skipped PATH: reason`). A folder with nothing to read is an error.
    static func expandForRun(_ paths: [String]) throws -> [String] {
        let expansion = try expand(paths)
        for (path, reason) in expansion.skipped.prefix(20) { printError("cdlog: note: skipped \(path): \(reason)") }
        if expansion.skipped.count > 20 { printError("cdlog: note: skipped \(expansion.skipped.count - 20) more files") }
        if expansion.files.isEmpty && !paths.isEmpty {
            throw ToolFailure("no log or crash report found in \(paths.joined(separator: ", "))")
        }
        return expansion.files
    }
}
