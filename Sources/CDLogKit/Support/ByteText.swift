extension UnsafeRawBufferPointer {
    /// The bytes of `range` as a string, ASCII white space (space, tab, CR, LF) trimmed from both ends on the
    /// bytes, which is cheaper than Foundation's trimming of a String. Invalid UTF-8 is repaired.
    func trimmedText(_ range: Range<Int>) -> String {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, Self.isTrimmed(self[lower]) { lower += 1 }
        while upper > lower, Self.isTrimmed(self[upper - 1]) { upper -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: self[lower..<upper]), as: UTF8.self)
    }

    @inline(__always) private static func isTrimmed(_ b: UInt8) -> Bool {
        b == 32 || b == 9 || b == 10 || b == 13
    }
}
