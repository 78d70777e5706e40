/// A finding's stable identity, for counting one failure across tickets, devices and releases: 64 bits,
/// printed as 16 lower-case hex digits.
///
/// Contract: the same for the same rule and message template on every run, machine, thread count, input
/// path and release of cdlog, unless the rule's id or the masking changes.
/// - A log finding: `TemplateHash` of the rule id, a line feed, and the key of the message's first line as
///   the report's timeline folds it (`TemplateMasker.foldingKey`: UUIDs, addresses, numbers, paths, URLs,
///   e-mail addresses and record names masked, then the first 400 bytes of that taken).
/// - A crash finding (an entry with a `fingerprintBasis`): `TemplateHash` of `crash`, a line feed, and the basis —
///   the crash's kind, termination code and the top frames of its crashed thread outside Apple's binaries.
///
/// Thread-safety: `TemplateMasker` is not; give each thread its own.
public enum Fingerprint {
    /// Bytes of the masked first line taken into the template, as the report's timeline takes them.
    public static let firstLineLimit = 400

    public static func of(_ entry: Entry, ruleID: String, masker: TemplateMasker) -> UInt64 {
        if let basis = entry.fingerprintBasis { return TemplateHash("crash\n" + basis).value }
        var hash = TemplateHash(ruleID)
        hash.add(0x0A)
        var key = templateKey(entry.message, masker: masker).bigEndian
        withUnsafeBytes(of: &key) { hash.keep($0.bindMemory(to: UInt8.self)) }
        return hash.value
    }

    /// The key of the message's first line as the report's timeline folds it: `TemplateMasker.foldingKey`
    /// with `firstLineLimit`.
    public static func templateKey(_ message: String, masker: TemplateMasker) -> UInt64 {
        masker.foldingKey(ofFirstLineOf: message, limit: firstLineLimit)
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
