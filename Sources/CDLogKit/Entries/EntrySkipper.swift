import CScan

/// What the entry splitter asks a consumer that does not want every entry (a classifying run does not want
/// entries no rule can match): after handing out a header line, whether to skip that line's entry and the
/// entries after it without building them.
///
/// Contract: `skip` is called on the splitter's thread only, right after the header line `line` (its message
/// from `messageStart`) was read, for formats with a C header parser (`LineFormat.headerParser`); it may
/// consume the reader's buffered lines (`LineReader.skipBufferedLines`) and returns how many entries it
/// skipped, the one `line` opens included, or nil to have that entry built and emitted as usual. Skipped
/// entries are one-line entries ended by a header line, so entry boundaries stay what the splitter would
/// have found. `skipped` is then called with that count, where those entries stand among the emitted ones.
/// A class bound: the splitter keeps one reference for the whole source.
public protocol EntrySkipper: AnyObject {
    func skip(_ line: UnsafeRawBufferPointer, messageStart: Int, parser: cscan_header_parser, reader: LineReader) -> Int?
    func skipped(_ count: Int)
}
