import CDLogCore

/// The output formats of `cdlog classify`.
public enum FindingsFormat: String, CaseIterable, Sendable {
    case text, jsonl, json, markdown, otlp

    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")

    /// `resource`: OpenTelemetry resource attributes added to every finding (`otlp` only).
    public func makeWriter(sink: OutputSink, color: Bool, resource: [(key: String, value: String)] = []) -> any FindingWriter {
        switch self {
        case .text: return TextFindingWriter(sink: sink, color: color)
        case .jsonl: return JSONLinesFindingWriter(sink: sink)
        case .json: return JSONDocumentFindingWriter(sink: sink)
        case .markdown: return MarkdownFindingWriter(sink: sink)
        case .otlp: return OTLPFindingWriter(sink: sink, resource: resource)
        }
    }
}
