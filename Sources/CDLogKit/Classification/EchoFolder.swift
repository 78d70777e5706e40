#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Folds consecutive echoes of one event into one reported entry with a count.
///
/// Xcode prints many Core Data events twice in a row: once from os_log (`error: CoreData+CloudKit: X`)
/// and once with the `CoreData:` prefix (`CoreData: error: CoreData+CloudKit: X`). Two entries fold when
/// they are adjacent in the same source, got the same verdict, and their messages are equal once the
/// `CoreData: ` prefix and a leading level word are removed. The folded entry's `endLine` is the last
/// copy's.
struct EchoFolder {
    /// An entry with the numbers of the first and the last entry folded into it.
    typealias Folded = (entry: ClassifiedEntry, first: Int, last: Int)

    private var pending: ClassifiedEntry?
    private var pendingFirst = -2
    private var pendingLast = -2

    /// Offers the entry number `index` (consecutive numbering over the source); returns an entry that
    /// is now complete and can be reported, if any.
    mutating func offer(_ entry: consuming ClassifiedEntry, index: Int) -> ClassifiedEntry? {
        offer(consume entry, first: index, last: index)?.entry
    }

    /// Offers an entry that already stands for the entries numbered `first...last` (folded on another
    /// thread, `entry.count` of them); returns an entry that is now complete, with its numbers.
    mutating func offer(_ entry: consuming ClassifiedEntry, first: Int, last: Int) -> Folded? {
        // Compared through `pending!` and counted in place: binding the pending entry to a local copied
        // it (a dozen retains and releases per finding).
        if pending != nil, first == pendingLast + 1, pending!.entry.source == entry.entry.source,
           pending!.classification?.rule === entry.classification?.rule,
           EchoFolder.sameKey(pending!.entry.message, entry.entry.message) {
            pending!.count += entry.count
            // The finding covers its copies: its last line is the last copy's.
            pending!.entry.endLine = max(pending!.entry.endLine, entry.entry.endLine)
            pendingLast = last
            return nil
        }
        // The runtime's line that announced an exception (`before-termination:` in its rule), directly followed by the
        // termination that reports it: the error that entry reports as fatal, not a second termination.
        if pending != nil, let lowered = pending!.classification?.rule.beforeTerminationTwin, first == pendingLast + 1,
           pending!.entry.source == entry.entry.source, EchoFolder.isTermination(entry) {
            pending!.classification = Classification(rule: lowered, fields: pending!.classification!.fields)
        }
        let finished = pending.take().map { ($0, pendingFirst, pendingLast) }
        pending = consume entry
        pendingFirst = first
        pendingLast = last
        return finished
    }

    /// The last pending entry, at the end of input.
    mutating func finish() -> ClassifiedEntry? { finishFolded()?.entry }

    /// `finish` with the entry's numbers.
    mutating func finishFolded() -> Folded? {
        defer { pending = nil; pendingFirst = -2; pendingLast = -2 }
        return pending.take().map { ($0, pendingFirst, pendingLast) }
    }

    /// True when `entry` is an app's termination by an uncaught exception (`*** Terminating app due to uncaught
    /// exception …`), reported `fatal`.
    static func isTermination(_ entry: ClassifiedEntry) -> Bool {
        entry.classification?.severity == .fatal && entry.entry.message.includes("Terminating app due to uncaught exception")
    }

    static let levelWords = ["error: ", "warning: ", "debug: ", "fault: ", "info: ", "annotation: ", "default: "].map { Array($0.utf8) }
    static let coreDataPrefix = Array("CoreData: ".utf8)

    /// Whether two messages are the same event once the echo prefixes are removed.
    static func sameKey(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                let keyA = keyStart(UnsafeRawBufferPointer(a)), keyB = keyStart(UnsafeRawBufferPointer(b))
                let length = a.count - keyA
                guard length == b.count - keyB else { return false }
                guard length > 0, let baseA = a.baseAddress, let baseB = b.baseAddress else { return true }
                return memcmp(baseA + keyA, baseB + keyB, length) == 0
            }
        }
    }

    /// Byte offset where the key starts: after leading spaces, a `CoreData: ` prefix and one level word.
    static func keyStart(_ message: UnsafeRawBufferPointer) -> Int {
        var index = 0
        while index < message.count, message[index] == UInt8(ascii: " ") { index += 1 }
        func hasPrefix(_ word: [UInt8]) -> Bool {
            message.count - index >= word.count && message[index..<(index + word.count)].elementsEqual(word)
        }
        if hasPrefix(coreDataPrefix) { index += coreDataPrefix.count }
        for word in levelWords where hasPrefix(word) { return index + word.count }
        return index
    }
}
