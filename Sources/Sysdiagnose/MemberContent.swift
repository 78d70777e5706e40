/// Reads the current member's bytes, at most `limit` of them.
protocol MemberContent {
    /// The member's first `limit` bytes (all of them when it is smaller) and whether there were more.
    mutating func read(limit: Int) throws -> (bytes: [UInt8], more: Bool)
}
