extension String {
    /// Where the first line ends: the first line feed, or `endIndex`. Found in the contiguous UTF-8 bytes,
    /// not index by index through the view.
    public var firstLineFeed: String.Index {
        var copy = self  // shares the storage; withUTF8 only copies a bridged or non-contiguous string
        let offset = copy.withUTF8 { $0.firstIndex(of: 0x0A) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) } ?? endIndex
    }

    /// The first line, cut at `limit` characters with "…".
    public func firstLine(limit: Int) -> String {
        // Measured on the UTF-8 view first: counting Characters of a long message is grapheme work.
        let line = self[..<firstLineFeed]
        if line.utf8.count <= limit { return String(line) }
        if let head = line.asciiHead(limit) { return String(head) + "…" }
        return line.count > limit ? String(line.prefix(limit)) + "…" : String(line)
    }

    public func cut(_ limit: Int) -> String {
        if utf8.count <= limit { return self }
        return count > limit ? String(prefix(limit)) + "…" : self
    }
}

extension Substring {
    /// The first `limit` characters when the first `limit + 1` bytes are ASCII (then they are exactly the
    /// first `limit` characters, and there are more: an ASCII byte followed by an ASCII byte always ends a
    /// character, a line feed aside, which a first line does not hold); nil otherwise. It spares counting a
    /// long line's Characters grapheme by grapheme.
    public func asciiHead(_ limit: Int) -> Substring? {
        guard utf8.count > limit else { return nil }
        let ascii = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for i in 0...limit where bytes[i] >= 0x80 || bytes[i] == 0x0A { return false }
            return true
        }
        guard ascii == true else { return nil }
        return self[..<utf8.index(startIndex, offsetBy: limit)]
    }
}
