import CDLogCore

/// A JSON object: its members in document order, and the byte range it spans in the source
/// (used to give MetricKit diagnostics their line numbers).
final class CrashJSONObject {
    var members: [(key: String, value: CrashJSON)] = []
    let start: Int
    var end: Int

    init(start: Int) {
        self.start = start
        self.end = start
    }

    subscript(key: String) -> CrashJSON? {
        for member in members where member.key == key { return member.value }
        return nil
    }
}
