#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thrown by `OutputSink` when the reader of our output went away (EPIPE): the command should end
/// quietly with exit 0, as `cdlog classify big.log | head` expects.
public struct OutputClosed: Error, Sendable {}

/// A buffered writer to a file descriptor (stdout by default).
///
/// Contract: bytes are written in order; `flush()` pushes everything out. A closed pipe throws
/// `OutputClosed`; any other write failure (a full disk, `/dev/full`) throws `ToolFailure` naming the
/// output. Writes never trap. Not thread-safe: one sink per writer.
public final class OutputSink {
    private let fd: Int32
    private let name: String
    private var buffer: [UInt8] = []
    private let capacity: Int
    private var closedForWriting = false

    /// Creates a sink over `fd`; `name` is used in error messages ("stdout", a file path).
    public init(fd: Int32 = 1, name: String = "stdout", capacity: Int = 1 << 16) {
        self.fd = fd
        self.name = name
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Ignores SIGPIPE process-wide so a closed pipe shows up as EPIPE from write(2) instead of
    /// killing the process. Call once at start-up.
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    public func write(_ string: String) throws {
        var s = string
        s.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    public func write<C: Collection>(bytes: C) throws where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// `write(bytes:)` for arrays, not generic: called from another module, the generic version is not
    /// specialized and looks up the collection's associated types at run time on every call (two calls
    /// per finding).
    public func write(bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { try write(buffer: $0) }
    }

    /// Writes `bytes`. A run at least as large as the buffer (a block of findings rendered on another
    /// thread) is written straight from where it is after what is buffered, not copied into the buffer.
    public func write(buffer bytes: UnsafeBufferPointer<UInt8>) throws {
        if bytes.count >= capacity {
            try flush()
            try writeAll(UnsafeRawBufferPointer(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    public func write(byte: UInt8) throws {
        buffer.append(byte)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes everything buffered. Throws `OutputClosed` on EPIPE, `ToolFailure` on other errors.
    public func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try writeAll($0) }
    }

    /// Writes all of `bytes` to the descriptor (retrying short writes and EINTR).
    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        if closedForWriting { throw OutputClosed() }
        var offset = 0
        let total = bytes.count
        while offset < total {
            #if canImport(Glibc)
            let written = Glibc.write(fd, bytes.baseAddress! + offset, total - offset)
            #else
            let written = Darwin.write(fd, bytes.baseAddress! + offset, total - offset)
            #endif
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE {
                    closedForWriting = true
                    throw OutputClosed()
                }
                throw ToolFailure("cannot write to \(name): \(String(cString: strerror(code)))")
            }
            offset += written
        }
    }
}

/// Writes one line to stderr, unbuffered. Used by the executables for their one-line errors.
public func printError(_ message: String) {
    var line = visibleControlCharacters(message) + "\n"
    line.withUTF8 { bytes in
        #if canImport(Glibc)
        _ = Glibc.write(2, bytes.baseAddress, bytes.count)
        #else
        _ = Darwin.write(2, bytes.baseAddress, bytes.count)
        #endif
    }
}

/// `text` with every control character except newline and tab (C0, DEL, C1: ESC, BEL, OSC, CSI…) and
/// every bidirectional override (U+202A–202E, U+2066–2069) shown as `\xNN` / `\u202E`, so that text taken
/// from a log, a store or a file name cannot drive or reorder the terminal it is shown on. With
/// `newlines`, newline, carriage return and tab are shown too: for one value on one line, where a newline
/// in a store's `Z_UUID` would otherwise forge lines of output.
public func visibleControlCharacters(_ text: String, newlines: Bool = false) -> String {
    // Fast path on the bytes: C0, DEL, C1 (C2 80–9F) and E2 80 AA–AE / E2 81 A6–A9.
    var suspicious = false
    var previous: UInt8 = 0, beforePrevious: UInt8 = 0
    for byte in text.utf8 {
        if byte < 0x20 && (newlines || (byte != 0x0A && byte != 0x09)) || byte == 0x7F
            || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F)
            || (beforePrevious == 0xE2 && ((previous == 0x80 && byte >= 0xAA && byte <= 0xAE) || (previous == 0x81 && byte >= 0xA6 && byte <= 0xA9))) {
            suspicious = true
            break
        }
        beforePrevious = previous
        previous = byte
    }
    guard suspicious else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if isHiddenControl(scalar, newlines: newlines) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let shown = scalar.value > 0xFF ? "\\u" + hex : "\\x" + (hex.count < 2 ? "0" + hex : hex)
            out.append(contentsOf: shown.unicodeScalars)
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}

@inline(__always)
private func isHiddenControl(_ scalar: Unicode.Scalar, newlines: Bool) -> Bool {
    let v = scalar.value
    return (v < 0x20 && (newlines || (v != 0x0A && v != 0x09))) || (v >= 0x7F && v <= 0x9F)
        || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
}
