/// Folds consecutive echoes of one event into one reported entry with a count.
///
/// Xcode prints many Core Data events twice in a row: once from os_log (`error: CoreData+CloudKit: X`)
/// and once with the `CoreData:` prefix (`CoreData: error: CoreData+CloudKit: X`). Two entries fold when
/// they are adjacent in the same source, got the same verdict, and their messages are equal once the
/// `CoreData: ` prefix and a leading level word are removed.
struct EchoFolder {
    private var pending: ReportedEntry?
    private var pendingKey: Substring = ""
    private var pendingIndex = -2

    /// Offers the entry number `index` (consecutive numbering over the source); returns an entry that
    /// is now complete and can be reported, if any.
    mutating func offer(_ entry: ReportedEntry, index: Int) -> ReportedEntry? {
        let key = EchoFolder.key(entry.entry.message)
        if var current = pending, index == pendingIndex + 1, current.entry.source == entry.entry.source,
           current.classification?.rule.id == entry.classification?.rule.id, key == pendingKey {
            current.count += 1
            pending = current
            pendingIndex = index
            return nil
        }
        let finished = pending
        pending = entry
        pendingKey = key
        pendingIndex = index
        return finished
    }

    /// The last pending entry, at the end of input.
    mutating func finish() -> ReportedEntry? {
        defer { pending = nil; pendingIndex = -2 }
        return pending
    }


    static let levelWords = ["error: ", "warning: ", "debug: ", "fault: ", "info: ", "annotation: ", "default: "]

    static func key(_ message: String) -> Substring {
        var text = Substring(message)
        while text.first == " " { text = text.dropFirst() }
        if text.hasPrefix("CoreData: ") { text = text.dropFirst("CoreData: ".count) }
        for word in levelWords where text.hasPrefix(word) {
            text = text.dropFirst(word.count)
            break
        }
        return text
    }
}
