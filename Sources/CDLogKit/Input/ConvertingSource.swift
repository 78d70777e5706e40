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
