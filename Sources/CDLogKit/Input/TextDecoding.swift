import CDLogCore
import CZlib

/// Turns a source into what the readers expect, UTF-8 with `\n` line ends, streaming and in bounded
/// memory:
/// - gzip (`1F 8B`, concatenated members too) is decompressed;
/// - UTF-16 and UTF-32, with a byte-order mark or without one (ASCII-heavy text whose every second or
///   fourth byte is zero: what Windows tools and some exports write), are converted to UTF-8;
/// - classic Mac line ends (carriage returns and no line feed in the first 64 KiB) become `\n`;
/// - a paste quoted as a whole (`> ` before at least four lines in five, as GitHub, mail and forums quote)
///   or indented as a whole (every line of the sample, copied out of a code comment or a list) loses that
///   one quote marker or common indentation on every line, so that its entries split as they were printed.
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
        let wrapping = pasteWrapping(sample.prefix, whole: sample.prefix.count < sampleBytes)
        if wrapping.quoted || wrapping.indent > 0 {
            current = PasteUnwrapSource(current, quoted: wrapping.quoted, indent: wrapping.indent)
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

    /// How a paste is wrapped: quoted (`>` opens at least 4 of 5 non-blank lines, and at least 2) or
    /// indented (every non-blank line of at least 2 opens with the same spaces or tabs: `indent` of them).
    /// Only whole lines of the sample count (a sample cut mid-line ignores its last line).
    static func pasteWrapping(_ bytes: [UInt8], whole: Bool) -> (quoted: Bool, indent: Int) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if !whole, lines.count > 1 { lines.removeLast() }
        var nonBlank = 0, quoted = 0
        var indent = Int.max
        for var line in lines.prefix(2000) {
            if line.last == 0x0D { line = line.dropLast() }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            nonBlank += 1
            if line.first == UInt8(ascii: ">") { quoted += 1 }
            indent = min(indent, line.prefix { $0 == 0x20 || $0 == 0x09 }.count)
        }
        guard nonBlank >= 2 else { return (false, 0) }
        let isQuoted = quoted >= 2 && quoted * 5 >= nonBlank * 4
        return (isQuoted, isQuoted || indent == Int.max ? 0 : indent)
    }

    /// Carriage returns and not one line feed: classic Mac line ends.
    static func usesBareCarriageReturns(_ bytes: [UInt8]) -> Bool {
        !bytes.contains(0x0A) && bytes.contains(0x0D)
    }
}

/// Replays the bytes read ahead (`prefix`), then reads on from the source.
final class SampledSource: ByteSource {
    let name: String
    private var inner: any ByteSource
    let prefix: [UInt8]
    private var offset = 0
    private var innerAtEnd: Bool

    private init(inner: any ByteSource, prefix: [UInt8], innerAtEnd: Bool) {
        name = inner.name
        self.inner = inner
        self.prefix = prefix
        self.innerAtEnd = innerAtEnd
    }

    /// Reads up to `limit` bytes ahead: all of a file's first `limit` bytes, and from a live stream
    /// what has arrived once something has (detection never waits for a slow `log stream`).
    static func sampling(_ source: any ByteSource, upTo limit: Int) throws -> SampledSource {
        var source = source
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        var atEnd = false
        while count < limit {
            if count >= 4, try !source.waitForInput(milliseconds: 0) { break }
            let n = try bytes.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            if n == 0 { atEnd = true; break }
            count += n
        }
        bytes.removeSubrange(count...)
        return SampledSource(inner: source, prefix: bytes, innerAtEnd: atEnd)
    }

    func waitForInput(milliseconds: Int32) throws -> Bool {
        offset < prefix.count || innerAtEnd ? true : try inner.waitForInput(milliseconds: milliseconds)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset < prefix.count {
            let n = min(buffer.count, prefix.count - offset)
            prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
        if innerAtEnd { return 0 }
        let n = try inner.read(into: buffer)
        if n == 0 { innerAtEnd = true }
        return n
    }
}

/// A source whose output is produced by converting the inner source's bytes a block at a time.
class ConvertingSource: ByteSource {
    let name: String
    var inner: any ByteSource
    private var input: [UInt8]
    var output: [UInt8] = []
    private var outputOffset = 0
    private(set) var innerAtEnd = false
    /// The most output one conversion step made (memory held at once).
    private(set) var largestStep = 0

    /// `inputSize`: bytes read from the inner source per conversion (bounds the output of one step).
    init(_ inner: any ByteSource, inputSize: Int = 64 * 1024) {
        name = inner.name
        self.inner = inner
        input = [UInt8](repeating: 0, count: inputSize)
        output.reserveCapacity(256 * 1024)
    }

    /// Converts `bytes` (empty at the end of the inner source), appending to `output`.
    func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {}

    func waitForInput(milliseconds: Int32) throws -> Bool {
        outputOffset < output.count || innerAtEnd ? true : try inner.waitForInput(milliseconds: milliseconds)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while outputOffset >= output.count {
            if innerAtEnd { return 0 }
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
            let n = try input.withUnsafeMutableBytes { try inner.read(into: $0) }
            if n == 0 { innerAtEnd = true }
            try input.withUnsafeBytes { try convert(UnsafeRawBufferPointer(rebasing: $0[0..<n]), atEnd: n == 0) }
            largestStep = max(largestStep, output.count)
        }
        let n = min(buffer.count, output.count - outputOffset)
        output.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + outputOffset, byteCount: n) }
        outputOffset += n
        return n
    }
}

/// UTF-16 or UTF-32 → UTF-8.
final class UnicodeDecodingSource: ConvertingSource {
    private let encoding: TextDecoding.Encoding
    private var skip: Int
    private var carry: [UInt8] = []
    private var highSurrogate: UInt32?

    init(_ inner: any ByteSource, encoding: TextDecoding.Encoding, skip: Int) {
        self.encoding = encoding
        self.skip = skip
        super.init(inner)
    }

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        let unit = encoding == .utf32LE || encoding == .utf32BE ? 4 : 2
        var data = carry
        data.append(contentsOf: bytes)
        if skip > 0 { let n = min(skip, data.count); data.removeFirst(n); skip -= n }
        let whole = data.count - data.count % unit
        var i = 0
        while i < whole {
            let value: UInt32
            switch encoding {
            case .utf16LE: value = UInt32(data[i]) | UInt32(data[i + 1]) << 8
            case .utf16BE: value = UInt32(data[i]) << 8 | UInt32(data[i + 1])
            case .utf32LE: value = UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16 | UInt32(data[i + 3]) << 24
            default: value = UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])
            }
            i += unit
            if unit == 2 {
                if (0xD800...0xDBFF).contains(value) {
                    if highSurrogate != nil { append(0xFFFD) }
                    highSurrogate = value
                    continue
                }
                if (0xDC00...0xDFFF).contains(value), let high = highSurrogate {
                    highSurrogate = nil
                    append(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
                    continue
                }
                if highSurrogate != nil { highSurrogate = nil; append(0xFFFD) }
            }
            append(value)
        }
        carry = Array(data[whole...])
        if atEnd {
            if highSurrogate != nil || !carry.isEmpty { append(0xFFFD) }
            highSurrogate = nil
            carry = []
        }
    }

    private func append(_ value: UInt32) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        output.append(contentsOf: UTF8.encode(scalar)!)
    }
}

/// Carriage returns → line feeds (a `\r\n` pair stays one line end).
final class CarriageReturnSource: ConvertingSource {
    private var lastWasCR = false

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        for b in bytes {
            if b == 0x0D { output.append(0x0A); lastWasCR = true; continue }
            if b == 0x0A, lastWasCR { lastWasCR = false; continue }
            lastWasCR = false
            output.append(b)
        }
    }
}

/// Removes one `>` quote marker (and one space after it) or `indent` leading blanks from every line.
final class PasteUnwrapSource: ConvertingSource {
    private let quoted: Bool
    private let indent: Int
    /// Bytes of the current line seen so far (only the first `indent + 2` matter).
    private var column = 0
    private var droppedQuote = false

    init(_ inner: any ByteSource, quoted: Bool, indent: Int) {
        self.quoted = quoted
        self.indent = indent
        super.init(inner)
    }

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        for b in bytes {
            if b == 0x0A {
                output.append(b)
                column = 0
                droppedQuote = false
                continue
            }
            defer { column += 1 }
            if quoted {
                if column == 0, b == UInt8(ascii: ">") { droppedQuote = true; continue }
                if column == 1, droppedQuote, b == 0x20 { continue }
            } else if column < indent, b == 0x20 || b == 0x09 {
                continue
            } else if column < indent {
                column = indent  // a shorter indentation: keep the rest of the line as it is
            }
            output.append(b)
        }
    }
}

/// gzip → bytes, through zlib (concatenated members are read one after another).
final class GzipSource: ConvertingSource {
    private var stream = z_stream()
    private var ended = false
    private var finishedMember = false
    private var chunk = [UInt8](repeating: 0, count: 256 * 1024)

    init(_ inner: any ByteSource) {
        // 4 KiB in at a time: at zlib's ratio limit (about 1 000:1) one step makes at most about 4 MiB.
        super.init(inner, inputSize: 4096)
        // 15 + 16: gzip framing, largest window.
        _ = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    }

    deinit { inflateEnd(&stream) }

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        if atEnd {
            if !ended && !finishedMember { throw ToolFailure("cannot read \(name): the gzip data ends early (truncated file)") }
            return
        }
        guard !ended else { return }
        var input = Array(bytes)
        var position = 0
        while position < input.count {
            if finishedMember {
                // Another member follows (or padding): start again on what is left.
                if input[position...].allSatisfy({ $0 == 0 }) { return }
                inflateReset(&stream)
                finishedMember = false
            }
            let before = position
            let status: Int32 = input.withUnsafeMutableBytes { raw in
                chunk.withUnsafeMutableBytes { out in
                    stream.next_in = raw.baseAddress!.assumingMemoryBound(to: Bytef.self) + position
                    stream.avail_in = uInt(raw.count - position)
                    stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: out[0..<(out.count - Int(stream.avail_out))]))
                    position = raw.count - Int(stream.avail_in)
                    return status
                }
            }
            switch status {
            case Z_STREAM_END: finishedMember = true
            case Z_OK: continue
            case Z_BUF_ERROR where position > before: continue
            case Z_BUF_ERROR: return
            default:
                ended = true
                let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw ToolFailure("cannot read \(name): the gzip data is corrupt (\(reason))")
            }
        }
        input = []
    }
}
