/// Output formats of walcheck.
public enum StoreReportFormat: String, Sendable, CaseIterable {
    case text, json, markdown
}
