import CDLogCore

/// `cdlog aggregate`'s outputs: a text table, a Markdown table, and JSON (docs/fleet.md, "One machine").
public enum AggregateRenderer {
    /// `{"inputs":N,"findings":N,"groups":[{fingerprint, rule, category, severity, title, appVersion, os,
    /// findings, tickets, users, firstSeen, lastSeen}, …]}`; times in UTC (`ISOTime.utcText`), null when unknown.
    public static func json(_ aggregator: Aggregator) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("inputs", aggregator.inputs)
        w.field("findings", aggregator.findings)
        w.key("groups")
        w.beginArray()
        for group in aggregator.sortedGroups {
            w.beginObject()
            w.field("fingerprint", group.key.fingerprint)
            w.field("rule", group.rule)
            w.field("category", group.category)
            w.field("severity", group.severity)
            w.field("title", group.title)
            w.field("appVersion", group.key.appVersion)
            w.field("os", group.key.os)
            w.field("findings", group.findings)
            w.field("tickets", group.tickets.count)
            w.field("users", group.users.count)
            w.field("firstSeen", group.firstSeen.map { ISOTime.utcText(nanoseconds: $0) })
            w.field("lastSeen", group.lastSeen.map { ISOTime.utcText(nanoseconds: $0) })
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text + "\n"
    }

    static let columns = ["fingerprint", "findings", "tickets", "users", "version", "OS", "first seen", "last seen", "rule"]

    static func cells(_ group: Aggregator.Group) -> [String] {
        [group.key.fingerprint, String(group.findings), String(group.tickets.count), String(group.users.count),
         group.key.appVersion ?? "-", group.key.os ?? "-",
         group.firstSeen.map { ISOTime.utcText(nanoseconds: $0) } ?? "-", group.lastSeen.map { ISOTime.utcText(nanoseconds: $0) } ?? "-",
         group.rule]
    }

    public static func text(_ aggregator: Aggregator) -> String {
        let groups = aggregator.sortedGroups
        let rows = [columns] + groups.map(cells)
        var widths = columns.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for row in rows {
            out += row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count) }
                .joined(separator: "  ") + "\n"
        }
        out += "\n" + counted(aggregator.findings, "finding", "findings") + " in " + counted(groups.count, "group", "groups")
            + " from " + counted(aggregator.inputs, "input", "inputs") + "\n"
        return out
    }

    public static func markdown(_ aggregator: Aggregator) -> String {
        let groups = aggregator.sortedGroups
        var out = "## cdlog aggregate\n\n" + counted(aggregator.findings, "finding", "findings") + " in "
            + counted(groups.count, "group", "groups") + " from " + counted(aggregator.inputs, "input", "inputs") + "\n\n"
        guard !groups.isEmpty else { return out }
        out += "| " + columns.joined(separator: " | ") + " | title |\n|" + String(repeating: "---|", count: columns.count + 1) + "\n"
        for group in groups {
            let row = cells(group).map { $0.replacingOccurrences(of: "|", with: "\\|") } + [group.title.replacingOccurrences(of: "|", with: "\\|")]
            out += "| `" + row[0] + "` | " + row.dropFirst().joined(separator: " | ") + " |\n"
        }
        return out
    }
}
