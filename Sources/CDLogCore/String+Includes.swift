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

extension String {
    /// The lines of this text (`Substring.textLines`).
    public func textLines(omittingEmpty: Bool = false) -> [Substring] { self[...].textLines(omittingEmpty: omittingEmpty) }
}

extension Substring {
    /// The lines of this text: split at every `\n`, each without the `\r` before it. Swift reads `\r\n` as
    /// one Character, so `split(separator: "\n")` leaves a Windows text (or a crash report saved on one)
    /// as one line; this splits on the scalar. With `omittingEmpty`, lines of no characters are dropped.
    public func textLines(omittingEmpty: Bool = false) -> [Substring] {
        let scalars = unicodeScalars
        var lines: [Substring] = []
        var start = scalars.startIndex, i = start
        func add(_ end: Substring.UnicodeScalarView.Index) {
            var end = end
            if end > start, scalars[scalars.index(before: end)] == "\r" { end = scalars.index(before: end) }
            if !omittingEmpty || end > start { lines.append(Substring(scalars[start..<end])) }
        }
        while i < scalars.endIndex {
            if scalars[i] == "\n" {
                add(i)
                start = scalars.index(after: i)
            }
            i = scalars.index(after: i)
        }
        add(scalars.endIndex)
        return lines
    }
}
