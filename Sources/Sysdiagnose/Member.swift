/// One member of an archive, or one entry of an extracted folder: its path relative to the top, as the
/// archive names it ("sysdiagnose_…/crashes_and_spins/MyApp-2024-….ips").
struct Member {
    enum Kind { case file, folder, link, other }
    var path: String
    var kind: Kind
    /// Bytes the member holds (a sparse member's logical size).
    var size: Int64
    /// Last modification, seconds since 1970 (nil when the archive does not say).
    var modified: Double?

    /// The path's components, or nil for a path that climbs out of its top (`..`) or starts at the root:
    /// such a member is never read (nothing is extracted either way, but a name like that is hostile).
    var safeComponents: [Substring]? {
        if path.hasPrefix("/") { return nil }
        let parts = path.split(separator: "/").filter { $0 != "." }
        return parts.contains("..") ? nil : parts
    }
}
