/// Walks the members of a sysdiagnose in one pass, handing each to `body` with a reader for its content;
/// a member whose content `body` does not read is skipped. Never writes, never follows a link.
protocol MemberWalk {
    /// A name for messages (the path given).
    var name: String { get }
    func forEach(_ body: (Member, inout any MemberContent) throws -> Void) throws
}
