/// Decodes the HTML entities a page escaped a paste with (`&lt;Warning&gt;`, `Code=134060 &quot;A Core
/// Data error occurred.&quot;`): `&lt;` `&gt;` `&quot;` `&amp;` `&apos;` `&#39;` `&#x27;` become the
/// characters the program printed. Any other `&…` is kept as it is. Lines are neither added nor removed.
final class HTMLEntitySource: ConvertingSource {
    /// An `&` and the bytes after it, while they may still be an entity (at most `&#x27;`, six bytes).
    private var pending: [UInt8] = []

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        for b in bytes {
            if !pending.isEmpty {
                if b == UInt8(ascii: ";") {
                    pending.append(b)
                    if let decoded = HTMLEntitySource.character(of: pending) { output.append(decoded) } else { output.append(contentsOf: pending) }
                    pending.removeAll(keepingCapacity: true)
                    continue
                }
                if pending.count < 5, HTMLEntitySource.mayContinue(b) {
                    pending.append(b)
                    continue
                }
                output.append(contentsOf: pending)
                pending.removeAll(keepingCapacity: true)
            }
            if b == UInt8(ascii: "&") { pending.append(b) } else { output.append(b) }
        }
        if atEnd, !pending.isEmpty {
            output.append(contentsOf: pending)
            pending.removeAll()
        }
    }

    /// A letter, a digit or `#`: what an entity's name holds.
    private static func mayContinue(_ b: UInt8) -> Bool {
        ((b | 0x20) >= 97 && (b | 0x20) <= 122) || (b >= 48 && b <= 57) || b == UInt8(ascii: "#")
    }

    private static let entities: [[UInt8]: UInt8] = [
        Array("&lt;".utf8): UInt8(ascii: "<"), Array("&gt;".utf8): UInt8(ascii: ">"), Array("&quot;".utf8): UInt8(ascii: "\""),
        Array("&amp;".utf8): UInt8(ascii: "&"), Array("&apos;".utf8): UInt8(ascii: "'"), Array("&#39;".utf8): UInt8(ascii: "'"),
        Array("&#x27;".utf8): UInt8(ascii: "'"),
    ]

    /// The character `entity` (from `&` to `;`) stands for, nil for one this source does not decode.
    static func character(of entity: [UInt8]) -> UInt8? { entities[entity] }

    /// True when `bytes` (a source's first bytes) read as a paste a page HTML-escaped: two entities or more
    /// for `<`, `>` or `"`, and not one raw `<` or `>` (a console prints `<private>`, `<CKError …>`,
    /// `<NSManagedObject: 0x…>` as they are; a page that escaped them left none).
    static func isEscaped(_ bytes: [UInt8]) -> Bool {
        var found = 0
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "<") || b == UInt8(ascii: ">") { return false }
            if b == UInt8(ascii: "&"), markupEntities.contains(where: { bytes[i...].starts(with: $0) }) { found += 1 }
        }
        return found >= 2
    }

    /// The entities that stand for markup: a page that escaped a paste escaped these.
    private static let markupEntities: [[UInt8]] = [Array("&lt;".utf8), Array("&gt;".utf8), Array("&quot;".utf8)]
}
