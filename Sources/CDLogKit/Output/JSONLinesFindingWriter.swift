import CDLogCore

/// `--format jsonl`: one JSON object per line, entries in input order, then the summary.
final class JSONLinesFindingWriter: RenderingFindingWriter {
    private let sink: OutputSink
    /// Entries reported here are written as the workers render theirs.
    private let renderer: JSONEntryRenderer

    init(sink: OutputSink) {
        self.sink = sink
        renderer = JSONLinesFindingWriter.renderer()
    }

    private static func renderer() -> JSONEntryRenderer { JSONEntryRenderer(before: "", after: "\n") }

    func report(_ entry: ClassifiedEntry) throws { try renderer.write(entry, to: sink) }

    func makeRenderer() -> any EntryRenderer { JSONLinesFindingWriter.renderer() }

    func report(rendered: RenderedFindings) throws { try sink.write(bytes: rendered.bytes) }

    func flush() throws { try sink.flush() }

    func finish(summary: ClassifySummary) throws {
        var w = JSONWriter()
        EntryJSON.writeSummary(summary, into: &w)
        try sink.write(w.text)
        try sink.write("\n")
        try sink.flush()
    }
}
