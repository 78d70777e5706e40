import CDLogCore
import CDLogKit
import CLISupport

extension InputFolders {
    /// Folders among `paths` expanded into the logs and crash reports in them; every skipped file is named
    /// on stderr (`cdlog: note: skipped PATH: reason`). A folder with nothing to read is an error.
    static func expandForRun(_ paths: [String]) throws -> [String] {
        let expansion = try expand(paths)
        for (path, reason) in expansion.skipped.prefix(20) { printError("cdlog: note: skipped \(path): \(reason)") }
        if expansion.skipped.count > 20 { printError("cdlog: note: skipped \(expansion.skipped.count - 20) more files") }
        if expansion.files.isEmpty && !paths.isEmpty {
            throw ToolFailure("no log or crash report found in \(paths.joined(separator: ", "))")
        }
        return expansion.files
    }
}
