import ArgumentParser
import CDLogCore
import CDLogKit
import CLISupport

/// `cdlog`: the root command. Parsing and wiring only; the work is in CDLogKit.
struct Cdlog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdlog",
        abstract: "Explains Core Data, CloudKit and SwiftData console output and crash reports.",
        discussion: "Exit codes: 0 success, 1 a finding at or above --fail-on (or failing rule examples), 2 bad usage or unreadable input.",
        version: ToolVersion.current,
        subcommands: [Classify.self, ReportCommand.self, AggregateCommand.self, ExplainCommand.self, RulesCommand.self]
    )
}
