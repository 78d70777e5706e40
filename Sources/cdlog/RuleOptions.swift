import ArgumentParser
import CDLogCore
import CDLogKit
import CLISupport

/// `--rules DIR`, shared by every command that loads rules.
struct RuleOptions: ParsableArguments {
    @Option(name: .customLong("rules"), help: ArgumentHelp("A directory (or file) of extra rule files; repeatable. A rule with an existing id replaces it.", valueName: "DIR"), completion: .file())
    var directories: [String] = []

    /// `examples: false` for commands that only classify: the embedded rules' examples are left unread.
    func loadRuleSet(examples: Bool = true) throws -> RuleSet {
        do {
            return try RuleSet.load(userDirectories: directories, examples: examples)
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
