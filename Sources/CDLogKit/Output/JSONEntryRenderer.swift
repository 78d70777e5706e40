import CDLogCore

/// Renders each entry's JSON object (`EntryJSON`) with fixed bytes before and after it. One per thread.
final class JSONEntryRenderer: EntryRenderer, @unchecked Sendable {
    private var writer = JSONWriter()
    private var rules = EncodedRuleMembers()
    private let masker = TemplateMasker()
    private let before: [UInt8], after: [UInt8]

    init(before: String, after: String) {
        self.before = Array(before.utf8)
        self.after = Array(after.utf8)
    }

    func render(_ entry: ClassifiedEntry, into bytes: inout [UInt8]) {
        writer.reset()
        EntryJSON.write(entry, into: &writer, rules: &rules, masker: masker)
        bytes.append(contentsOf: before)
        writer.withBytes { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: after)
    }

    /// `render` straight into `sink` (no intermediate copy), `before` left out when `omittingBefore`.
    func write(_ entry: ClassifiedEntry, to sink: OutputSink, omittingBefore: Bool = false) throws {
        writer.reset()
        EntryJSON.write(entry, into: &writer, rules: &rules, masker: masker)
        if !omittingBefore, !before.isEmpty { try sink.write(bytes: before) }
        try writer.withBytes { try sink.write(buffer: $0) }
        if !after.isEmpty { try sink.write(bytes: after) }
    }
}
