#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A finding's stable identity, for counting one failure across tickets, devices and releases: 64 bits,
/// printed as 16 lower-case hex digits.
///
/// Contract: the same for the same rule and message template on every run, machine, thread count, input
/// path and release of cdlog, unless the rule's id or the masking changes.
/// - A log finding: `TemplateHash` of the rule id, a line feed, and the folding key of the message's first line as
///   the report's timeline folds it (`TemplateMasker`: UUIDs, addresses, numbers, paths, URLs, e-mail
///   addresses and record names masked); a line longer than 400 bytes is cut before the word at the limit.
/// - A crash finding (an entry with a `fingerprintBasis`): `TemplateHash` of `crash`, a line feed, and the basis —
///   the crash's kind, termination code and the top frames of its crashed thread outside Apple's binaries.
///
/// Thread-safety: `TemplateMasker` is not; give each thread its own.
public enum Fingerprint {
    /// Bytes of the first line taken into the template, as the report's timeline takes them.
    public static let firstLineLimit = 400

    public static func of(_ entry: Entry, ruleID: String, masker: TemplateMasker) -> UInt64 {
        if let basis = entry.fingerprintBasis { return TemplateHash("crash\n" + basis).value }
        var hash = TemplateHash(ruleID)
        hash.add(0x0A)
        var key = templateKey(entry.message, masker: masker).bigEndian
        withUnsafeBytes(of: &key) { hash.keep($0.bindMemory(to: UInt8.self)) }
        return hash.value
    }

    /// The folding key of the message's first line. A line longer than `firstLineLimit` bytes is cut before
    /// the word the limit falls in (a UUID or number cut in two would not be masked), then masked.
    public static func templateKey(_ message: String, masker: TemplateMasker) -> UInt64 {
        var message = message
        // nil: the first line is short enough to be taken whole.
        let cutKey = message.withUTF8 { bytes -> UInt64? in
            guard let base = bytes.baseAddress else { return nil }
            let end = memchr(base, 0x0A, bytes.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
            guard end > firstLineLimit else { return nil }
            var at = firstLineLimit
            while at > 0, isWordByte(bytes[at]) || bytes[at] & 0xC0 == 0x80 { at -= 1 }
            let cut = UnsafeBufferPointer(rebasing: bytes[..<at])
            return TemplateMasker.hashWithoutRegex(cut) ?? TemplateHash(masker.mask(String(decoding: cut, as: UTF8.self))).value
        }
        return cutKey ?? masker.foldingKey(ofFirstLineOf: message, limit: firstLineLimit)
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
