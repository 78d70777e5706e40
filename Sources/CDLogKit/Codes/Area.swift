import CDLogCore
import CScan

/// An area row (Rules/tables/areas.yaml): text that says which part of the persistence stack a generic
/// finding really concerns — a Core Data frame nearest the top of a crash, a store being loaded around a
/// file error.
///
/// Contract: an area moves only the findings of the rules its `moves` groups name (an id, or a prefix
/// ending in `*`); the finding keeps its rule, severity and fields, takes the area's category, gets field
/// `area` (the row's name) and the row's advice before its own. Where several areas could move a finding,
/// the one whose match starts first in the text wins (the frame nearest the top of a stack), ties going
/// to the earlier row; a row that `yields` (where a crash surfaced, not what the code was doing: SQLite's
/// frames) wins only when no other row matches, and a row that yields `last` (the allocator's abort, which
/// says only where a corruption was noticed) only when no other row at all matches.
public struct Area: @unchecked Sendable {
    public let name: String
    public let category: Category
    public let regex: PCRERegex
    /// A substring every match contains, searched for before the pattern runs; nil when the row has none.
    public let literal: [UInt8]?
    public let advice: String
    public let example: String
    /// Rule ids, or prefixes ending in `*`, whose findings this area may move.
    public let moves: [String]
    /// `moves` split for the classifier's start-up, which asks about every rule: whole ids, and prefixes.
    private let movedIDs: Set<String>
    private let movedPrefixes: [Substring]
    /// 0: the row competes on where it matches; 1 (`yields: true`): it applies only where no row of rank 0
    /// matches; 2 (`yields: last`): only where no other row matches.
    public let yieldRank: Int
    public let location: SourceLocation

    /// True when a finding of rule `id` may be moved by this area.
    public func moves(ruleID id: String) -> Bool {
        movedIDs.contains(id) || movedPrefixes.contains { id.hasPrefix($0) }
    }

    init(name: String, category: Category, regex: PCRERegex, literal: [UInt8]?, advice: String, example: String,
         moves: [String], yieldRank: Int, location: SourceLocation) {
        self.name = name
        self.category = category
        self.regex = regex
        self.literal = literal
        self.advice = advice
        self.example = example
        self.moves = moves
        movedIDs = Set(moves.filter { !$0.hasSuffix("*") })
        movedPrefixes = moves.filter { $0.hasSuffix("*") }.map { $0.dropLast() }
        self.yieldRank = yieldRank
        self.location = location
    }

    /// Where this area's first match in `range` of `message` starts, if it matches there.
    func firstMatch(in message: UnsafeRawBufferPointer, range: Range<Int>, scratch: MatchScratch) -> Int? {
        let slice = UnsafeRawBufferPointer(rebasing: message[range])
        if let literal {
            let found = literal.withUnsafeBytes { cscan_find(slice.baseAddress, slice.count, $0.baseAddress, $0.count) }
            guard found >= 0 else { return nil }
        }
        guard let groups = regex.firstMatch(in: slice, scratch: scratch), let whole = groups.first ?? nil else { return nil }
        return range.lowerBound + whole.lowerBound
    }
}
