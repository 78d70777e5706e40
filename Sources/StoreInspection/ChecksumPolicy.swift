/// How much of the WAL's checksum chain to verify.
public enum ChecksumPolicy: String, Sendable, CaseIterable {
    /// Trust frames up to the wal-index's `mxFrame` when the wal-index is valid, carries the WAL's salts
    /// and its `aFrameCksum` equals that frame's stored checksum (SQLite itself wrote them); verify the
    /// chain from there on. Without such an anchor, verify the whole chain (what SQLite's recovery does).
    case auto
    /// Verify every frame from the header (streams the whole file once).
    case full
    /// Verify nothing: frames count as valid on salts and page number alone (frame headers only).
    case none
}
