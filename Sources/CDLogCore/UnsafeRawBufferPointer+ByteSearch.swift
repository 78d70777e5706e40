import CScan

extension UnsafeRawBufferPointer {
    /// True when the bytes of `sequence` occur in these bytes (`cscan_find`, a byte search). An empty
    /// `sequence` is never found.
    @inlinable public func contains(sequence: StaticString) -> Bool {
        let count = sequence.utf8CodeUnitCount
        guard self.count >= count, count > 0 else { return false }
        return cscan_find(baseAddress!, self.count, sequence.utf8Start, count) >= 0
    }
}
