/// Memory a `LineReader` reads into: its own, or one a thread lends it (`forNextPart(readingInto:)`).
public final class ReadBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(byteCount: Int) {
        bytes = .allocate(byteCount: byteCount, alignment: 64)
    }

    deinit { bytes.deallocate() }
}
