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
