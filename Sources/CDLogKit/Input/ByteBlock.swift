import CScan

/// Whole lines cut from an input by `LineReader.forNextPart`, where they were read (in a `ReadBuffer`),
/// which a block reader (`LineReader(block:name:)`) reads in place. Immutable once made.
public final class ByteBlock: @unchecked Sendable {
    let storage: UnsafeMutableRawBufferPointer
    public var count: Int { storage.count }
    /// The lines a block reader hands out: one per `\n`, and one for a last line without it.
    public let lineCount: Int
    /// Keeps `storage` alive.
    private let owner: AnyObject

    /// The block of `bytes`, which `owner` keeps alive; counts its lines.
    init(_ bytes: UnsafeMutableRawBufferPointer, owner: AnyObject) {
        storage = bytes
        self.owner = owner
        if let base = bytes.baseAddress, !bytes.isEmpty {
            lineCount = cscan_count_byte(base, bytes.count, 0x0A) + (bytes.last == 0x0A ? 0 : 1)
        } else {
            lineCount = 0
        }
    }

    /// A block of a copy of `bytes` (for tests).
    convenience init(copying bytes: UnsafeRawBufferPointer) {
        let copy = ReadBuffer(byteCount: max(bytes.count, 1))
        if let base = bytes.baseAddress, !bytes.isEmpty { copy.bytes.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        self.init(UnsafeMutableRawBufferPointer(rebasing: copy.bytes[0..<bytes.count]), owner: copy)
    }

    /// The bytes, copied (for tests).
    public var bytes: [UInt8] { Array(UnsafeRawBufferPointer(storage)) }
}
