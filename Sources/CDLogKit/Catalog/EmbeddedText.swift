/// How an embedded rule file (RuleEmbedder's output) may differ from the file it was made from: a comment line stored
/// blank, nothing else; every line keeps its number. The tests of the embedded rule files, code tables and diagnoses
/// read their files through this.
@_spi(Testing) public enum EmbeddedText {
    /// What is wrong with `stored` as the embedded copy of `original`: a different number of lines, or a line that
    /// differs other than by being a blanked comment line. Empty when the copy is right.
    public static func problems(stored: String, original: String) -> [String] {
        let storedLines = stored.split(separator: "\n", omittingEmptySubsequences: false)
        let originalLines = original.split(separator: "\n", omittingEmptySubsequences: false)
        var problems: [String] = []
        if storedLines.count != originalLines.count {
            problems.append("\(storedLines.count) lines stored, \(originalLines.count) in the file")
        }
        for (number, (mine, theirs)) in zip(storedLines, originalLines).enumerated() where mine != theirs {
            if !(mine.isEmpty && theirs.drop(while: { $0 == " " }).hasPrefix("#")) {
                problems.append("line \(number + 1) differs: \(theirs)")
            }
        }
        return problems
    }

    /// How many comment lines `stored` has blanked.
    public static func blankedLines(stored: String, original: String) -> Int {
        zip(stored.split(separator: "\n", omittingEmptySubsequences: false),
            original.split(separator: "\n", omittingEmptySubsequences: false)).filter { $0 != $1 }.count
    }
}
