/// `{condition.key}` placeholders in diagnosis statements.
enum Placeholders {
    static func names(in text: String) -> [String] {
        var names: [String] = []
        var current: String?
        for c in text {
            if c == "{" { current = "" } else if c == "}" {
                if let name = current { names.append(name) }
                current = nil
            } else if current != nil { current!.append(c) }
        }
        return names
    }

    /// Replaces every placeholder with `resolve(name)`; nil when any placeholder does not resolve.
    static func fill(_ text: String, _ resolve: (String) -> String?) -> String? {
        var out = ""
        var current: String?
        for c in text {
            if c == "{" { current = "" } else if c == "}", let name = current {
                guard let value = resolve(name) else { return nil }
                out += value
                current = nil
            } else if current != nil { current!.append(c) } else { out.append(c) }
        }
        return out
    }
}
