extension EntrySplitter {
    /// The entries of `reader` as a run on several threads finds them: cut into blocks at entry
    /// boundaries (`LineReader.forEachPart`: blocks, and spans for entries longer than a block), each part
    /// split on its own, line numbers made the source's. For the tests and the fuzzer that hold it to
    /// splitting the whole source at once. Nil when `format` has no cut points (it is never cut).
    @_spi(Testing) public static func entriesInBlocks(_ reader: LineReader, format: InputFormat, sourceName: String,
                                                      maxLineBytes: Int) throws -> [Entry]? {
        guard let isCutPoint = cutPointTest(for: format) else { return nil }
        // Decided once from the whole source's first bytes, as `ClassifyRun` does.
        let layout = SourceLayout(sample: try reader.peek(FormatDetector.sampleBytes), format: format)
        var entries: [Entry] = []
        var linesBefore = 0
        try reader.forEachPart(isCutPoint: isCutPoint) { part in
            let partReader = part.reader(name: sourceName, maxLineBytes: maxLineBytes)
            try EntrySplitter(reader: partReader, forcedFormat: format, layout: layout).forEachEntry { raw in
                var entry = raw.makeEntry(source: sourceName)
                entry.line += linesBefore
                entry.endLine += linesBefore
                entries.append(entry)
            }
            linesBefore += partReader.lineNumber
        }
        return entries
    }
}
