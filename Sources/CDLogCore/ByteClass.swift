/// The classes of white-space bytes the readers trim and split on, each named for the bytes it holds:
/// one place for all of them.
public enum ByteClass {
    /// Space or tab.
    @inlinable @inline(__always) public static func isBlank(_ b: UInt8) -> Bool { b == 32 || b == 9 }
    /// Space, tab or CR (the CR of a CRLF line end).
    @inlinable @inline(__always) public static func isBlankOrCR(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 13 }
    /// Space, tab, CR or LF.
    @inlinable @inline(__always) public static func isBlankOrLineBreak(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
    /// C's `isspace`: space, tab, LF, VT, FF, CR.
    @inlinable @inline(__always) public static func isWhitespace(_ b: UInt8) -> Bool { b == 32 || (b >= 9 && b <= 13) }
}
