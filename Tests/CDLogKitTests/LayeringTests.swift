import Foundation
import Testing

/// Which parts of the code may use which (docs/architecture.md, "Layers"). Modules may import only the modules
/// listed for them; inside CDLogKit, a folder may name only the types of the folders listed for it. A
/// dependency that is not in the tables fails the test: adding one is a decision, made here and in the docs.
///
/// The check reads the sources: the types each CDLogKit folder declares, and the capitalised names each file
/// uses outside comments and string literals. It is a name check, not a compiler's: a local name that
/// happens to equal another folder's type counts as a use.
@Suite struct LayeringTests {
    static let sources = TestSupport.packageRoot.appendingPathComponent("Sources")

    /// Module → the modules (and system libraries) it may import.
    static let modules: [String: Set<String>] = [
        "CDLogCore": ["CScan", "Darwin", "Glibc"],
        "StoreInspection": ["CDLogCore", "CSQLite", "Darwin", "Glibc"],
        "CrashReports": ["CDLogCore", "Foundation"],
        "CDLogKit": ["CDLogCore", "CrashReports", "CPCRE2", "CScan", "CZlib", "Darwin", "Glibc", "Dispatch", "Foundation", "Yams"],
        "Sysdiagnose": ["CDLogCore", "CDLogKit", "CArchive", "Darwin", "Glibc", "Foundation"],
        "ReportKit": ["CDLogCore", "CDLogKit", "StoreInspection", "Sysdiagnose", "Foundation", "Yams"],
        "CLISupport": ["CDLogCore", "CScan", "ArgumentParser", "Darwin", "Glibc"],
        "cdlog": ["CDLogCore", "CDLogKit", "ReportKit", "StoreInspection", "Sysdiagnose", "CLISupport", "ArgumentParser", "Darwin", "Glibc", "Foundation"],
        "walcheck": ["CDLogCore", "StoreInspection", "CLISupport", "ArgumentParser"],
        "RuleEmbedder": ["Foundation"],
    ]

    /// CDLogKit folder → the other folders whose types it may name. The reading stage (Input, Formats,
    /// Entries: bytes in, entries out; crash documents are parsed by the CrashReports module) names nothing
    /// of matching, rules, classification or reporting; it offers `EntrySkipper` for a classifying run to
    /// skip entries. `Matching` (PCRE2, literals, the prefilter) knows no rule; `Rules` is the rule model,
    /// holding compiled patterns; `Codes` turns the code tables into rules; `Catalog` (`RuleSet`) is both
    /// loaded together; `RuleTools` runs the whole pipeline over examples and corpora
    /// (`rules test`, `rules eval`, `rules list`) and may name everything.
    static let folders: [String: Set<String>] = [
        "Support": [],
        "Input": ["Support", "Entries", "Formats"],
        "Formats": ["Support", "Entries"],
        "Entries": ["Support", "Input", "Formats"],
        "Matching": ["Support"],
        "Rules": ["Support", "Matching"],
        "Codes": ["Support", "Matching", "Rules"],
        "Catalog": ["Support", "Matching", "Rules", "Codes"],
        "Templates": ["Support", "Matching"],
        "Results": ["Support", "Entries", "Rules", "Templates"],
        "Output": ["Support", "Entries", "Rules", "Catalog", "Results", "Templates"],
        "Classification": ["Support", "Input", "Formats", "Entries", "Matching", "Codes", "Rules", "Catalog", "Results", "Output", "Templates"],
        "RuleTools": ["Support", "Input", "Formats", "Entries", "Matching", "Codes", "Rules", "Catalog", "Results", "Output", "Classification", "Templates"],
        "Aggregation": ["Support", "Input", "Formats", "Entries", "Matching", "Codes", "Rules", "Catalog", "Results", "Output", "Classification", "Templates"],
    ]

    @Test func modulesImportOnlyWhatTheirLayerAllows() throws {
        for module in try Self.directories(in: Self.sources) where !module.hasPrefix("C") || Self.modules[module] != nil {
            guard let allowed = Self.modules[module] else {
                Issue.record("module \(module) is not in LayeringTests.modules: state what it may import")
                continue
            }
            for file in try Self.swiftFiles(in: Self.sources.appendingPathComponent(module)) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.contains("import ") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                          words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                    let imported = String(words[index + 1])
                    #expect(allowed.contains(imported), "\(module)/\(file.lastPathComponent) imports \(imported)")
                }
            }
        }
    }

    @Test func cdlogKitFoldersNameOnlyTheTypesTheirLayerAllows() throws {
        let kit = Self.sources.appendingPathComponent("CDLogKit")
        var owner: [String: String] = [:]
        var texts: [(folder: String, file: String, text: String)] = []
        for folder in try Self.directories(in: kit) {
            #expect(Self.folders[folder] != nil, "CDLogKit/\(folder) is not in LayeringTests.folders")
            for file in try Self.swiftFiles(in: kit.appendingPathComponent(folder)) {
                let text = Self.code(try String(contentsOf: file, encoding: .utf8))
                texts.append((folder, file.lastPathComponent, text))
                for name in Self.declarations(in: text) where owner[name] == nil { owner[name] = folder }
            }
        }
        #expect(owner.count > 80, "too few declarations found: \(owner.count)")
        var violations: [String] = []
        for (folder, file, text) in texts {
            let allowed = Self.folders[folder] ?? []
            for name in Set(Self.capitalisedNames(in: text)) {
                guard let home = owner[name], home != folder, !allowed.contains(home) else { continue }
                violations.append("\(folder)/\(file) names \(name) (\(home))")
            }
        }
        #expect(violations.isEmpty, "\(violations.sorted().joined(separator: "\n"))")
    }

    /// The reading stage's three folders are one layer (they name each other); apart from that, no folder
    /// and no module may reach itself through the tables: a lower layer never names a higher one.
    static let readingStage: Set<String> = ["Input", "Formats", "Entries"]

    @Test func theLayersFormNoCycle() {
        let folders = Self.folders.reduce(into: [String: Set<String>]()) { graph, pair in
            let node = Self.readingStage.contains(pair.key) ? "reading" : pair.key
            let edges = Set(pair.value.map { Self.readingStage.contains($0) ? "reading" : $0 }).subtracting([node])
            graph[node, default: []].formUnion(edges)
        }
        #expect(Self.cycle(in: folders) == nil, "CDLogKit folders: \(Self.cycle(in: folders) ?? [])")
        #expect(Self.cycle(in: Self.modules) == nil, "modules: \(Self.cycle(in: Self.modules) ?? [])")
        #expect(Self.cycle(in: ["Matching": ["Rules"], "Rules": ["Support", "Matching"]]) == ["Matching", "Rules", "Matching"])
    }

    /// A path that returns to its start, or nil when the graph has none.
    static func cycle(in graph: [String: Set<String>]) -> [String]? {
        var done: Set<String> = []
        func visit(_ node: String, _ path: [String]) -> [String]? {
            if let start = path.firstIndex(of: node) { return Array(path[start...]) + [node] }
            guard !done.contains(node) else { return nil }
            for next in (graph[node] ?? []).sorted() {
                if let found = visit(next, path + [node]) { return found }
            }
            done.insert(node)
            return nil
        }
        for node in graph.keys.sorted() { if let found = visit(node, []) { return found } }
        return nil
    }

    @Test func theCheckFindsAViolation() {
        // A file of the reading stage naming the classifier is caught.
        let code = Self.code("let x = Classifier.self // FindingWriter in a comment\nlet s = \"Prefilter in a string\"")
        #expect(Set(Self.capitalisedNames(in: code)) == ["Classifier"])
        #expect(Self.declarations(in: "public final class QuietEntrySkipper: EntrySkipper {\n    struct Inner {}\n}\nenum Top {}\n") == ["QuietEntrySkipper", "Top"])
    }

    // MARK: - Reading the sources

    static func directories(in url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }

    static func swiftFiles(in url: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// `text` without `//` comments and with string literals emptied (one-line literals; multi-line ones
    /// keep their text, which only makes the check stricter).
    static func code(_ text: String) -> String {
        var result = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var inString = false, escaped = false, previous: Character = " "
            for character in line {
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false; result.append("\"") }
                    continue
                }
                if character == "/" && previous == "/" { result.removeLast(); break }
                if character == "\"" { inString = true }
                result.append(character)
                previous = character
            }
            result.append("\n")
        }
        return result
    }

    /// Names declared at the top level (a line that is not indented) by `struct`, `class`, `enum`, `protocol`,
    /// `typealias` or `actor`; nested types (`Parser.Result`) are their enclosing type's.
    static func declarations(in code: String) -> [String] {
        let keywords: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "actor"]
        var names: [String] = []
        for line in code.split(separator: "\n") where !(line.first?.isWhitespace ?? true) {
            var previous: Substring = ""
            for word in line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
                if keywords.contains(previous), let first = word.first, first.isUppercase { names.append(String(word)) }
                previous = word
            }
        }
        return names
    }

    static func capitalisedNames(in code: String) -> [String] {
        code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
            .filter { $0.first?.isUppercase == true }.map(String.init)
    }
}
