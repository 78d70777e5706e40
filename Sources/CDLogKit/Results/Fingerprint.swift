/// A finding's stable identity, for counting one failure across tickets, devices and releases: 64 bits,
/// printed as 16 lower-case hex digits.
///
/// Contract: the same for the same rule and message template on every run, machine, thread count, input
/// path and release of cdlog, unless the rule's id or the masking changes.
/// - A log finding: FNV-1a of the rule id, a line feed, and the folding key of the message's first line as
///   the report's timeline folds it (`TemplateMasker`: UUIDs, addresses, numbers, paths, URLs, e-mail
///   addresses and record names masked); a line longer than 400 bytes is cut before the word at the limit.
/// - A crash finding (an entry with a `fingerprintBasis`): FNV-1a of `crash`, a line feed, and the basis —
///   the crash's kind, termination code and the top frames of its crashed thread outside Apple's binaries.
///
/// Thread-safety: `TemplateMasker` is not; give each thread its own.
public enum Fingerprint {
    /// Bytes of the first line taken into the template, as the report's timeline takes them.
    public static let firstLineLimit = 400

    public static func of(_ entry: Entry, ruleID: String, masker: TemplateMasker) -> UInt64 {
        var hash = TemplateHash()
        if let basis = entry.fingerprintBasis {
            for byte in "crash\n".utf8 { hash.add(byte) }
            for byte in basis.utf8 { hash.add(byte) }
            return hash.value
        }
        for byte in ruleID.utf8 { hash.add(byte) }
        hash.add(0x0A)
        var key = templateKey(entry.message, masker: masker)
        for _ in 0..<8 {
            hash.add(UInt8(truncatingIfNeeded: key >> 56))
            key <<= 8
        }
        return hash.value
    }

    /// The folding key of the message's first line. A line longer than `firstLineLimit` bytes is cut before
    /// the word the limit falls in (a UUID or number cut in two would not be masked), then masked.
    public static func templateKey(_ message: String, masker: TemplateMasker) -> UInt64 {
        var message = message
        let cut = message.withUTF8 { bytes -> String? in
            let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
            guard end > firstLineLimit else { return nil }
            var at = firstLineLimit
            while at > 0, isWordByte(bytes[at]) || bytes[at] & 0xC0 == 0x80 { at -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<at]), as: UTF8.self)
        }
        guard let cut else { return masker.foldingKey(ofFirstLineOf: message, limit: firstLineLimit) }
        return TemplateHash(masker.mask(cut)).value
    }

    /// Letters, digits, `_` and `-` (UUIDs), and any byte of a multi-byte character.
    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D || b >= 0x80
    }

    /// 16 lower-case hex digits.
    public static func text(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 16)
        var v = value
        for i in stride(from: 15, through: 0, by: -1) {
            out[i] = digits[Int(v & 0xF)]
            v >>= 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}
