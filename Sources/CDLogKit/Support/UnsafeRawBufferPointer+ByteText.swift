import CDLogCore
extension UnsafeRawBufferPointer {
    /// The bytes of `range` as a string, ASCII white space (space, tab, CR, LF) trimmed from both ends on the
    /// bytes, which is cheaper than Foundation's trimming of a String. Invalid UTF-8 is repaired.
    func trimmedText(_ range: Range<Int>) -> String {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, ByteClass.isBlankOrLineBreak(self[lower]) { lower += 1 }
        while upper > lower, ByteClass.isBlankOrLineBreak(self[upper - 1]) { upper -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: self[lower..<upper]), as: UTF8.self)
    }
}
