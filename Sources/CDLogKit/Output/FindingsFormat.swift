import CDLogCore

/// The output formats of `cdlog classify`.
public enum FindingsFormat: String, CaseIterable, Sendable {
    case text, jsonl, json, markdown

    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")

    public func makeWriter(sink: OutputSink, color: Bool) -> any FindingWriter {
        switch self {
        case .text: return TextFindingWriter(sink: sink, color: color)
        case .jsonl: return JSONLinesFindingWriter(sink: sink)
        case .json: return JSONDocumentFindingWriter(sink: sink)
        case .markdown: return MarkdownFindingWriter(sink: sink)
        }
    }
}
