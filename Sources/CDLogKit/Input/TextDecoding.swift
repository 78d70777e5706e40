/// Turns a source into what the readers expect, UTF-8 with `\n` line ends, streaming and in bounded
/// memory:
/// - gzip (`1F 8B`, concatenated members too) is decompressed;
/// - UTF-16 and UTF-32, with a byte-order mark or without one (ASCII-heavy text whose every second or
///   fourth byte is zero: what Windows tools and some exports write), are converted to UTF-8;
/// - classic Mac line ends (carriage returns and no line feed in the first 64 KiB) become `\n`;
/// - a paste quoted as a whole (`> ` before at least four lines in five, as GitHub, mail and forums quote,
///   or before the one line there is)
///   or indented as a whole (every line of the sample, copied out of a code comment or a list) loses that
///   one quote marker or common indentation on every line, so that its entries split as they were printed.
/// - the lines of a Markdown code fence around a paste (```` ``` ````, ```` ```text ````, `~~~`) are blanked
///   (`FenceBlankingSource`);
/// - a paste a page HTML-escaped (two `&lt;`, `&gt;` or `&quot;` or more and no raw `<` or `>` in the first
///   64 KiB) has its entities decoded (`HTMLEntitySource`);
/// - mandiant's `unifiedlog_iterator` CSV becomes its JSON Lines (`UnifiedLogCSVSource`).
/// Anything else is handed on untouched (a UTF-8 BOM is left for format detection). Line numbers do not
/// change: no line is added or removed.
///
/// Contract: `prepare` reads at most 64 KiB ahead (less from a live stream: what has arrived);
/// invalid UTF-16/32 becomes U+FFFD; a corrupt or truncated gzip stream throws `ToolFailure` naming
/// the source, after what could be decompressed was handed on.
public enum TextDecoding {
    public enum Encoding: String, Sendable { case utf8, utf16LE, utf16BE, utf32LE, utf32BE }

    static let sampleBytes = 64 * 1024

    /// `source` wrapped in whatever decoding its first bytes call for.
    public static func prepare(_ source: any ByteSource) throws -> any ByteSource {
        var sample = try SampledSource.sampling(source, upTo: sampleBytes)
        var current: any ByteSource = sample
        if sample.prefix.starts(with: [0x1F, 0x8B]) {
            sample = try SampledSource.sampling(GzipSource(current), upTo: sampleBytes)
            current = sample
        }
        let (encoding, bom) = detectEncoding(sample.prefix)
        if encoding != .utf8 {
            sample = try SampledSource.sampling(UnicodeDecodingSource(current, encoding: encoding, skip: bom), upTo: sampleBytes)
            current = sample
        }
        if usesBareCarriageReturns(sample.prefix) {
            sample = try SampledSource.sampling(CarriageReturnSource(current), upTo: sampleBytes)
            current = sample
        }
        if UnifiedLogCSVSource.isUnifiedLogCSV(sample.prefix) {
            // unifiedlog_iterator's CSV: read as its JSON Lines (one object per record, line numbers kept).
            return UnifiedLogCSVSource(current)
        }
        if HTMLEntitySource.isEscaped(sample.prefix) {
            // A page escaped the paste (`&lt;Warning&gt;`): read as it was printed.
            sample = try SampledSource.sampling(HTMLEntitySource(current), upTo: sampleBytes)
            current = sample
        }
        let wrapping = pasteWrapping(sample.prefix, whole: sample.prefix.count < sampleBytes)
        if wrapping.quoted || wrapping.indent > 0 {
            current = PasteUnwrapSource(current, quoted: wrapping.quoted, indent: wrapping.indent)
        }
        if wrapping.fenced {
            current = FenceBlankingSource(current)
        }
        return current
    }

    /// The encoding of text that starts with `bytes`, and the length of its byte-order mark.
    public static func detectEncoding(_ bytes: [UInt8]) -> (Encoding, bom: Int) {
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return (.utf32LE, 4) }
        if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return (.utf32BE, 4) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        let sample = bytes.prefix(4096)
        guard sample.count >= 8 else { return (.utf8, 0) }
        // Zero bytes by position: ASCII text in UTF-16 has a zero in every other byte, in UTF-32 three in four.
        var zeros = [Int](repeating: 0, count: 4)
        for (i, b) in sample.enumerated() where b == 0 { zeros[i & 3] += 1 }
        let quarter = Double(sample.count / 4)
        let share = zeros.map { Double($0) / max(1, quarter) }
        if share[1] > 0.9, share[2] > 0.9, share[3] > 0.9, share[0] < 0.1 { return (.utf32LE, 0) }
        if share[0] > 0.9, share[1] > 0.9, share[2] > 0.9, share[3] < 0.1 { return (.utf32BE, 0) }
        let even = (share[0] + share[2]) / 2, odd = (share[1] + share[3]) / 2
        if odd > 0.6, even < 0.1 { return (.utf16LE, 0) }
        if even > 0.6, odd < 0.1 { return (.utf16BE, 0) }
        return (.utf8, 0)
    }

    /// How a paste is wrapped: quoted (`>` opens at least 4 of 5 non-blank lines, and at least 2; or the one
    /// line there is opens with `> `) or indented (every non-blank line opens with the same spaces or tabs:
    /// `indent` of them); `fenced` when a line of it is a Markdown code fence (```` ``` ````),
    /// which the quote and indentation counts leave out. Only whole lines of the sample count (a sample cut
    /// mid-line ignores its last line).
    static func pasteWrapping(_ bytes: [UInt8], whole: Bool) -> (quoted: Bool, indent: Int, fenced: Bool) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if !whole, lines.count > 1 { lines.removeLast() }
        var nonBlank = 0, quoted = 0
        var indent = Int.max
        var fenced = false
        var onlyLineQuoted = false
        for var line in lines.prefix(2000) {
            if line.last == 0x0D { line = line.dropLast() }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            var unquoted = line.drop { $0 == 0x20 || $0 == 0x09 }
            if unquoted.first == UInt8(ascii: ">") {
                unquoted = unquoted.dropFirst()
                if unquoted.first == 0x20 { unquoted = unquoted.dropFirst() }
            }
            if FenceBlankingSource.isFence(unquoted.drop { $0 == 0x20 || $0 == 0x09 }) {
                fenced = true
                continue
            }
            nonBlank += 1
            if line.first == UInt8(ascii: ">") { quoted += 1 }
            onlyLineQuoted = line.starts(with: [UInt8(ascii: ">"), 0x20])
            indent = min(indent, line.prefix { $0 == 0x20 || $0 == 0x09 }.count)
        }
        if nonBlank == 1, onlyLineQuoted { return (true, 0, fenced) }
        // One line alone: its indentation is a page's (a code block, a list), not the log's.
        if nonBlank == 1 { return (false, indent, fenced) }
        guard nonBlank >= 2 else { return (false, 0, fenced) }
        let isQuoted = quoted >= 2 && quoted * 5 >= nonBlank * 4
        return (isQuoted, isQuoted || indent == Int.max ? 0 : indent, fenced)
    }

    /// Carriage returns and not one line feed: classic Mac line ends.
    static func usesBareCarriageReturns(_ bytes: [UInt8]) -> Bool {
        !bytes.contains(0x0A) && bytes.contains(0x0D)
    }
}
