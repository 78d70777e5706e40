import CDLogCore
import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The rules cdlog classifies with: the embedded default catalog plus any user rule files.
///
/// Contract: ids are unique within the default catalog and within each user directory (a duplicate is a
/// `RuleFileError`); a user rule whose id exists replaces the earlier rule in place. Loading is all or
/// nothing: the first bad file stops it with an error that points into that file.
public struct RuleSet: Sendable {
    public let rules: [Rule]
    /// The code tables (Rules/tables/) that rules with `resolve: codes` consult; nil in sets built for tests
    /// without them.
    public let codes: CodeCatalog?

    public init(rules: [Rule], codes: CodeCatalog? = nil) {
        self.rules = rules
        self.codes = codes
    }

    /// The default catalog, compiled from the rule files embedded at build time. `examples: false` leaves the
    /// rules' `examples:` blocks unread (a third of the files' bytes, and of their YAML parsing at start-up): for
    /// commands that classify and never run or count the examples.
    public static func embedded(examples: Bool = true) throws -> RuleSet {
        let files = EmbeddedRuleFiles.files.map { file in
            (path: file.path, text: examples ? file.text : RuleSet.blankingExamples(of: file.text))
        }
        let codes = try CodeCatalog.embedded()
        let set = try RuleSet(files: files, codes: codes, guarded: false, embedded: true)
        return RuleSet(rules: set.rules + codes.exceptionRules, codes: codes)
    }

    /// Compiles the given files (in the order given) into one set, checking id uniqueness. The files are
    /// parsed and compiled concurrently (on every core: YAML parsing and pattern compilation are most
    /// of cdlog's start-up), then merged in order; a bad file throws the error a file-by-file load
    /// would, the first in file order.
    /// `guarded`: user rule files (`RuleLoader.guarded`); `embedded`: the files built into the binary
    /// (`RuleLoader.embedded`).
    public init(files: [(path: String, text: String)], base: RuleSet? = nil, codes: CodeCatalog? = nil,
                guarded: Bool = false) throws {
        try self.init(files: files, base: base, codes: codes, guarded: guarded, embedded: false)
    }

    init(files: [(path: String, text: String)], base: RuleSet? = nil, codes: CodeCatalog? = nil,
         guarded: Bool, embedded: Bool) throws {
        self.codes = codes ?? base?.codes
        var rules = base?.rules ?? []
        var indexByID: [String: Int] = [:]
        for (index, rule) in rules.enumerated() { indexByID[rule.id] = index }
        var seenInTheseFiles: [String: SourceLocation] = [:]
        let firstOrder = (rules.map(\.order).max() ?? -1) + 1
        let results = mapConcurrently(files.count) { index in
            Result { try RuleLoader(path: files[index].path, text: files[index].text, guarded: guarded, embedded: embedded)
                .load(firstOrder: firstOrder + index * RuleSet.ordersPerFile) }
        }
        for result in results {
            let loaded = try result.get()
            for rule in loaded {
                if let first = seenInTheseFiles[rule.id] {
                    throw RuleFileError(file: rule.location.file, line: rule.location.line, column: rule.location.column,
                                        message: "duplicate rule id `\(rule.id)` (first defined at \(first))", sourceLine: nil)
                }
                seenInTheseFiles[rule.id] = rule.location
                if let existing = indexByID[rule.id] {
                    rules[existing] = rule
                } else {
                    indexByID[rule.id] = rules.count
                    rules.append(rule)
                }
            }
        }
        self.rules = rules
    }

    /// `text` with every rule's `examples:` block blanked: the key's line and every line under it (deeper, blank or a
    /// comment) become empty lines, so that the YAML parser skips them and every other line keeps its number for the
    /// loader's errors. The block ends at the first line of content indented no deeper than its key.
    static func blankingExamples(of text: String) -> String {
        // Bytes, not Characters: the embedded files are a megabyte, read at every start.
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var blockIndent: Int? = nil
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var first = start
            while first < end, bytes[first] == 0x20 { first += 1 }
            let indent = first - start
            var last = end
            while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 || bytes[last - 1] == 0x0D { last -= 1 }
            let isBlankOrComment = first == last || bytes[first] == UInt8(ascii: "#")
            var blank = false
            if let open = blockIndent {
                if isBlankOrComment || indent > open { blank = true } else { blockIndent = nil }
            }
            if !blank, last - first == 9, bytes[first..<last].elementsEqual("examples:".utf8) {
                blank = true
                blockIndent = indent
            }
            if !blank { out.append(contentsOf: bytes[start..<end]) }
            if end < bytes.count { out.append(0x0A) }
            start = end + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The room in `Rule.order` for one file's rules: file k of a load numbers its rules from
    /// k × this, so that files can be loaded at once and still order as declared.
    static let ordersPerFile = 1 << 32

    /// The default catalog plus the `*.yaml`/`*.yml` files of each directory (sorted by name).
    /// Throws `ToolFailure` when a directory cannot be read, `RuleFileError` for a bad file.
    public static func load(userDirectories: [String], examples: Bool = true) throws -> RuleSet {
        var set = try embedded(examples: examples)
        for directory in userDirectories {
            set = try RuleSet(files: try readRuleFiles(in: directory), base: set, guarded: true)
        }
        return set
    }

    /// Reads the rule files of `directory` (or the single file `directory` names).
    public static func readRuleFiles(in directory: String) throws -> [(path: String, text: String)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw ToolFailure("rules directory not found: \(directory)")
        }
        let paths: [String]
        if isDirectory.boolValue {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                throw ToolFailure("cannot read rules directory: \(directory)")
            }
            paths = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                .map { (directory as NSString).appendingPathComponent($0) }
        } else {
            paths = [directory]
        }
        return try paths.map { path in (path, try readRuleFile(path)) }
    }

    /// One rule file's text. A FIFO, device or folder is refused before it is opened (a FIFO would block);
    /// a file that cannot be read says why (`strerror`).
    static func readRuleFile(_ path: String) throws -> String {
        var st = stat()
        guard stat(FileSystemPath.bytes(path), &st) == 0 else { throw ToolFailure("cannot read rule file \(path): \(String(cString: strerror(errno)))") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw ToolFailure("rule file \(path) is not a regular file") }
        guard st.st_size <= 16 << 20 else { throw ToolFailure("rule file too large (over 16 MiB): \(path)") }
        let fd = open(FileSystemPath.bytes(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ToolFailure("cannot read rule file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToolFailure("cannot read rule file \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if bytes.count > 16 << 20 { throw ToolFailure("rule file too large (over 16 MiB): \(path)") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ToolFailure("rule file is not UTF-8: \(path)") }
        return text
    }

    public func rule(id: String) -> Rule? { rules.first { $0.id == id } }

    /// One line per guarded (user) pattern that ran into PCRE2's backtracking limits during this process,
    /// naming the rule and the pattern: for stderr at the end of a run.
    public var matchBudgetWarnings: [String] {
        rules.flatMap { rule in
            (rule.patterns + rule.required + rule.excluded + rule.fieldPatterns.map(\.regex)).compactMap { $0.budget?.warning }
        }
    }
}
