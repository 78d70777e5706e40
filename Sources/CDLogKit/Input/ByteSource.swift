/// Something bytes can be read from in order: a file, stdin, or memory (tests).
public protocol ByteSource {
    /// The name used in messages and output (`-` for stdin).
    var name: String { get }
    /// Reads up to `buffer.count` bytes; returns 0 at the end. Throws `ToolFailure` on a read error.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Waits up to `milliseconds` for input; false when none came in that time (a live stream paused),
    /// true when a read would not block (data, the end, or an error to report). Sources that never
    /// pause (files, memory) return true at once.
    mutating func waitForInput(milliseconds: Int32) throws -> Bool
}

extension ByteSource {
    public mutating func waitForInput(milliseconds: Int32) throws -> Bool { true }
}
