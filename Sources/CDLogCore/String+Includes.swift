import CScan

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
