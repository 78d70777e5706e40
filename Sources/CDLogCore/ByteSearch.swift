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

extension String {
    /// True when the UTF-8 bytes of `needle` occur in this string's: a byte search (`cscan_find`), not
    /// Foundation's `contains`, which compares through NSString. An empty `needle` is always found.
    @inlinable public func includes(_ needle: String) -> Bool {
        var haystack = self, needle = needle
        return haystack.withUTF8 { h in
            needle.withUTF8 { n in
                guard n.count > 0 else { return true }
                guard h.count >= n.count, let hb = h.baseAddress, let nb = n.baseAddress else { return false }
                return cscan_find(hb, h.count, nb, n.count) >= 0
            }
        }
    }
}
