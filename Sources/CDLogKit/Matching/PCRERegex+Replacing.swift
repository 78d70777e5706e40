extension PCRERegex {
    /// Replaces every match: `replacement` gets the matched text and the capture groups' texts and
    /// returns what to put in the matched range (or nil to keep it).
    public func replacingMatches(in text: String, scratch: MatchScratch,
                          _ replacement: (_ match: String, _ groups: [String?]) -> String?) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start <= raw.count, let ranges = firstMatch(in: raw, from: start, scratch: scratch), let whole = ranges[0] {
                let groups = ranges.dropFirst().map { $0.map { String(decoding: bytes[$0], as: UTF8.self) } }
                let matched = String(decoding: bytes[whole], as: UTF8.self)
                if let replaced = replacement(matched, Array(groups)) {
                    out.append(contentsOf: bytes[position..<whole.lowerBound])
                    out.append(contentsOf: replaced.utf8)
                    position = whole.upperBound
                }
                start = whole.isEmpty ? whole.upperBound + 1 : whole.upperBound
            }
        }
        if position == 0 && out.isEmpty { return text }
        out.append(contentsOf: bytes[position...])
        return String(decoding: out, as: UTF8.self)
    }
}
