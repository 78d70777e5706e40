/// Cuts message text for a report. With a redactor it redacts first and cuts after, so that no cut
/// leaves part of a personal value behind: `alice.smith@icloud.c…` would no longer be recognised.
struct ExcerptCutter {
    let redactor: Redactor?

    static var plain: ExcerptCutter { ExcerptCutter(redactor: nil) }

    /// Bytes past the cut that are redacted with it, so that a value straddling the cut is seen whole.
    static let lookahead = 4096

    /// The first line, at most `limit` characters ("…" when cut).
    func firstLine(_ text: String, limit: Int) -> String {
        excerpt(text.utf8[..<text.firstLineFeed], limit: limit)
    }

    /// At most `limit` characters ("…" when cut).
    func cut(_ text: String, limit: Int) -> String { excerpt(text.utf8[...], limit: limit) }

    private func excerpt(_ bytes: Substring.UTF8View, limit: Int) -> String {
        // Counted on the UTF-8 view first: counting Characters of a long message is grapheme work.
        if redactor == nil && bytes.count <= limit { return String(Substring(bytes)) }
        let window = limit * 4 + Self.lookahead
        let whole = bytes.count <= window
        var text = String(decoding: whole ? bytes : bytes.prefix(window), as: UTF8.self)
        if let redactor {
            if !whole {
                // The window may end inside a value: leave that run of non-blank characters out.
                if let last = text.utf8.lastIndex(where: { $0 == 0x20 || $0 == 0x09 }) { text = String(text[...last]) } else { text = "" }
            }
            text = redactor.redact(text)
        }
        if let head = text[...].asciiHead(limit) { return String(head) + "…" }
        if text.count > limit { return String(text.prefix(limit)) + "…" }
        return whole ? text : text + "…"
    }
}
