/// Bytes in memory, handed out at most `chunkSize` at a time (tests use 1 and 7 to prove that results
/// never depend on where a read ended).
public struct MemoryByteSource: ByteSource {
    public let name: String
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var offset = 0

    public init(name: String = "-", bytes: [UInt8], chunkSize: Int = 1 << 16) {
        self.name = name
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    public init(name: String = "-", text: String, chunkSize: Int = 1 << 16) {
        self.init(name: name, bytes: Array(text.utf8), chunkSize: chunkSize)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, chunkSize, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
