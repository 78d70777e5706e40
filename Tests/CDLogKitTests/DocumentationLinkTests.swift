import Foundation
import Testing

/// Issue 25: every relative Markdown link in the repository's documents resolves — the file exists and,
/// when the link names an anchor, the target document has a heading with that anchor (GitHub's rule:
/// lower-case, punctuation dropped, spaces to hyphens, repeated headings numbered).
@Suite struct DocumentationLinkTests {
    static let root = TestSupport.packageRoot

    /// Markdown files of the repository (not build folders, not fetched packages).
    static func documents() -> [URL] {
        var found: [URL] = []
        let skip: Set<String> = [".build", ".build-fuzz", ".git", "bench-data", ".swiftpm"]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
        for case let url as URL in walker {
            if skip.contains(url.lastPathComponent) { walker.skipDescendants(); continue }
            if url.pathExtension == "md" { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    static func anchors(of text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result = Set<String>()
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            guard !inCode, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            var anchor = ""
            for scalar in title.lowercased().unicodeScalars {
                if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" { anchor.unicodeScalars.append(scalar) }
                else if scalar == " " { anchor += "-" }
            }
            let n = seen[anchor, default: 0]
            seen[anchor] = n + 1
            result.insert(n == 0 ? anchor : "\(anchor)-\(n)")
        }
        return result
    }

    @Test func everyRelativeLinkResolves() throws {
        let link = try NSRegularExpression(pattern: #"\[[^\]]*\]\(([^)\s]+)\)"#)
        var broken: [String] = []
        let documents = Self.documents()
        #expect(documents.count > 10)
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            // Links inside fenced code are examples, not links.
            var fenced: [NSRange] = []
            var offset = 0, open: Int?
            for line in text.components(separatedBy: "\n") {
                if line.hasPrefix("```") { if let o = open { fenced.append(NSRange(location: o, length: offset - o)); open = nil } else { open = offset } }
                offset += (line as NSString).length + 1
            }
            for match in link.matches(in: text, range: range) where !fenced.contains(where: { NSIntersectionRange($0, match.range).length > 0 }) {
                let target = (text as NSString).substring(with: match.range(at: 1))
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]), anchor = parts.count > 1 ? String(parts[1]) : nil
                let file = path.isEmpty ? document : document.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                let name = document.path.replacingOccurrences(of: Self.root.path + "/", with: "")
                guard FileManager.default.fileExists(atPath: file.path) else { broken.append("\(name): \(target) (no such file)"); continue }
                if let anchor, file.pathExtension == "md" {
                    let anchors = Self.anchors(of: try String(contentsOf: file, encoding: .utf8))
                    if !anchors.contains(anchor) { broken.append("\(name): \(target) (no such heading)") }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.count) broken links:\n\(broken.joined(separator: "\n"))")
    }
}
