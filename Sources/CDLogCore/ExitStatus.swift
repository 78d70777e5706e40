/// Exit codes shared by `cdlog` and `walcheck` (docs/domain.md, "Output contracts").
public enum ExitStatus: Int32, Sendable {
    /// Success, and no finding at or above `--fail-on`.
    case success = 0
    /// A finding at or above `--fail-on LEVEL` exists (or `rules test` found failing examples).
    case findings = 1
    /// Bad usage, unreadable or invalid input, invalid rule file, unwritable output.
    case failure = 2
}
