import CDLogCore
import CZlib

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
