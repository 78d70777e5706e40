import CDLogCore

/// The output formats of `cdlog report`.
public enum ReportOutputFormat: String, CaseIterable, Sendable {
    case markdown, html, json
    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")

    public func render(_ document: ReportDocument) -> String {
        switch self {
        // Control characters from the input are shown, never sent to a terminal that shows the report.
        case .markdown: return visibleControlCharacters(MarkdownRenderer.render(document))
        case .html: return visibleControlCharacters(HTMLRenderer.render(document))
        case .json: return JSONReportRenderer.render(document)
        }
    }
}
