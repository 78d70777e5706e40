import CDLogCore

/// `--format json`: one document `{"entries":[…],"summary":{…}}`, streamed entry by entry.
final class JSONDocumentFindingWriter: RenderingFindingWriter {
    private let sink: OutputSink
    private var first = true
    /// Entries reported here are written as the workers render theirs.
    private let renderer: JSONEntryRenderer

    init(sink: OutputSink) {
        self.sink = sink
        renderer = JSONDocumentFindingWriter.renderer()
    }

    /// Every rendered entry starts with the `,\n` that separates it from the one before; the document's
    /// first entry has the opening instead (`openIfFirst`).
    private static func renderer() -> JSONEntryRenderer { JSONEntryRenderer(before: ",\n", after: "") }

    func report(_ entry: ClassifiedEntry) throws {
        let opened = try openIfFirst()
        try renderer.write(entry, to: sink, omittingBefore: opened)
    }

    func makeRenderer() -> any EntryRenderer { JSONDocumentFindingWriter.renderer() }

    func report(rendered: RenderedFindings) throws {
        guard rendered.count > 0 else { return }
        if try openIfFirst() { try sink.write(bytes: rendered.bytes.dropFirst(2)) } else { try sink.write(bytes: rendered.bytes) }
    }

    /// Writes the document's opening before its first entry; true when it did.
    private func openIfFirst() throws -> Bool {
        guard first else { return false }
        first = false
        try sink.write("{\"entries\":[\n")
        return true
    }

    func finish(summary: ClassifySummary) throws {
        try sink.write(first ? "{\"entries\":[],\n\"summary\":" : "\n],\n\"summary\":")
        var w = JSONWriter()
        EntryJSON.writeSummary(summary, into: &w)
        try sink.write(w.text)
        try sink.write("}\n")
        try sink.flush()
    }
}
