import CDLogCore

/// A rule's `"category":…,"severity":…,"rule":…,"title":…` and `"advice":…` as JSON members, encoded the
/// first time one of its findings is written (`JSONWriter.members(encoded:)`), so no later finding escapes
/// them again. Each thread's renderer has its own: rules live as long as the run's classifier, and a
/// table shared by threads would have every finding write its reference count from every core.
struct EncodedRuleMembers {
    /// Plain memory, not arrays: a lookup then costs no reference counting.
    private var encoded: [ObjectIdentifier: (verdict: FrozenBytes, advice: FrozenBytes)] = [:]
    private let storage = FrozenStorage()

    mutating func members(of rule: Rule) -> (verdict: FrozenBytes, advice: FrozenBytes) {
        if let known = encoded[ObjectIdentifier(rule)] { return known }
        let verdict = JSONWriter.encodeMembers([("category", rule.category.id), ("severity", rule.severity.name),
                                                ("rule", rule.id), ("title", rule.title)])
        let members = (storage.freeze(bytes: verdict), storage.freeze(bytes: JSONWriter.encodeMembers([("advice", rule.advice)])))
        encoded[ObjectIdentifier(rule)] = members
        return members
    }
}
