import CDLogCore

/// Renders the catalog for `cdlog rules list` and `cdlog rules explain`.
public enum RuleCatalogListing {
    /// One line per rule, grouped by category, then the totals.
    public static func text(_ set: RuleSet) -> String {
        var out = ""
        for category in Category.allCases {
            let rules = set.rules.filter { $0.category == category && $0.resolution == nil }
            guard !rules.isEmpty else { continue }
            out += "\(category.id) (\(rules.count))\n"
            for rule in rules {
                out += "  \(rule.severity.name.padding(7))  \(rule.id.padding(48))  \(rule.title)\n"
            }
        }
        let resolved = set.rules.filter { $0.resolution != nil }
        if !resolved.isEmpty {
            out += "decided by data (\(resolved.count))\n"
            for rule in resolved {
                out += "  \(rule.resolution!.rawValue.padding(8))  \(rule.id.padding(48))  \(rule.title)\n"
            }
        }
        if let codes = set.codes {
            out += "code tables:\n"
            for table in codes.tables {
                var line = "  \(table.domain.padding(22)) \(String(table.entries.count).leftPadding(4)) codes"
                if !table.ranges.isEmpty { line += ", \(table.ranges.count) ranges" }
                if !table.internalNames.isEmpty {
                    line += ", \(table.internalNames.count) internal codes (\(table.internalCodes.count) mapped to public ones)"
                }
                out += line + "  (\(table.path))\n"
            }
            out += "  \(codes.wrappers.count) fatal wrappers, \(codes.catchers.count) catchers, \(codes.markers.count) fallback markers, \(codes.activityMarkers.count) activity markers\n"
            let exceptionRows = codes.exceptionRules.filter { !$0.id.hasSuffix(".caught") }
            if !exceptionRows.isEmpty {
                let names = exceptionRows.filter { $0.id.hasPrefix("exception.name.") }.count
                out += "  exception table: \(exceptionRows.count - names) reasons, \(names) names, each with a caught twin"
                    + "  (\(exceptionRows[0].location.file))\n"
            }
            if let first = codes.areas.first {
                out += "  area table: \(codes.areas.count) areas in \(Set(codes.areas.map(\.category)).count) categories  (\(first.location.file))\n"
            }
        }
        let examples = set.rules.reduce(0) { $0 + $1.matchExamples.count + $1.nomatchExamples.count }
        out += "\n\(set.rules.count) rules in \(Set(set.rules.map(\.category)).count) categories, \(examples) examples\n"
        // The `stack` rules are tried outside the prefilter, only on entries that open with a frame.
        let filtered = set.rules.filter { $0.input != .stack }
        out += "prefilter: " + Prefilter(patterns: filtered.map(\.patterns), required: filtered.map(\.required)).statistics + "\n"
        let stackRules = set.rules.filter { $0.input == .stack }
        if !stackRules.isEmpty {
            out += "\(stackRules.count) rules read only entries that open with a stack frame, after every other rule: "
                + stackRules.map(\.id).joined(separator: ", ") + "\n"
        }
        let ungated = filtered.filter { rule in rule.patterns.contains { RequiredLiterals.of(pattern: $0.pattern) == nil } }
        if !ungated.isEmpty {
            out += "\(ungated.count) rules have a pattern without a required literal (checked with PCRE2 on every entry): "
                + ungated.map(\.id).joined(separator: ", ") + "\n"
        }
        return out
    }

    /// JSON: `{"rules":[{"id","category","severity","priority","title","patterns","require","exclude","source"}…]}`.
    /// `patterns` are the PCRE2 patterns that decide a match (for benchmarks with other tools).
    public static func json(_ set: RuleSet) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("rules")
        w.beginArray()
        for rule in set.rules {
            w.beginObject()
            w.field("id", rule.id)
            w.field("category", rule.category.id)
            w.field("severity", rule.severity.name)
            w.field("priority", rule.priority)
            w.field("title", rule.title)
            w.key("patterns"); w.beginArray(); for p in rule.patterns { w.string(p.pattern) }; w.endArray()
            w.key("require"); w.beginArray(); for p in rule.required { w.string(p.pattern) }; w.endArray()
            w.key("exclude"); w.beginArray(); for p in rule.excluded { w.string(p.pattern) }; w.endArray()
            w.field("source", "\(rule.location.file):\(rule.location.line)")
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text + "\n"
    }

    public static func explain(_ rule: Rule) -> String {
        var out = "\(rule.id)\n  title:     \(rule.title)\n  category:  \(rule.category.id)\n  severity:  \(rule.severity.name)\n"
        out += "  priority:  \(rule.priority)\n  defined:   \(rule.location)\n  patterns:\n"
        for p in rule.patterns { out += "    \(p.pattern)\n" }
        if !rule.required.isEmpty { out += "  require:\n" + rule.required.map { "    \($0.pattern)\n" }.joined() }
        if !rule.excluded.isEmpty { out += "  exclude:\n" + rule.excluded.map { "    \($0.pattern)\n" }.joined() }
        if !rule.extractors.isEmpty { out += "  extractors: " + rule.extractors.map(\.rawValue).joined(separator: ", ") + "\n" }
        if let advice = rule.advice { out += "  advice:\n    " + advice.replacingNewlines(with: "\n    ") + "\n" }
        if !rule.references.isEmpty { out += "  references:\n" + rule.references.map { "    - \($0)\n" }.joined() }
        if !rule.matchExamples.isEmpty { out += "  matches:\n" + rule.matchExamples.map { "    " + $0.text.clipped(160) + "\n" }.joined() }
        if !rule.nomatchExamples.isEmpty { out += "  does not match:\n" + rule.nomatchExamples.map { "    " + $0.text.clipped(160) + "\n" }.joined() }
        return out
    }
}

extension String {
    fileprivate func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
