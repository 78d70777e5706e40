import CDLogCore
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Expands folders given as inputs (a folder of crash reports, an extracted sysdiagnose, a ticket's
/// attachments) into the files in them, recursively and in name order, keeping only what reads as a log or
/// a crash report: each file's first 64 KiB go through the same decoding and format detection as a run.
/// A file given by name is always kept (the run reports what it is).
///
/// Contract: never follows a symlink to a folder (no cycles); skips hidden entries (`.git`, `.DS_Store`);
/// at most `limit` files are kept; every skipped file is named in `skipped` with the reason. Throws
/// `ToolFailure` only for a folder that cannot be listed.
public enum InputFolders {
    public struct Expansion: Sendable {
        public var files: [String] = []
        public var skipped: [(path: String, reason: String)] = []
    }

    public static let limit = 10_000

    public static func expand(_ paths: [String]) throws -> Expansion {
        var result = Expansion()
        for path in paths {
            var info = stat()
            if path != "-", stat(FileSystemPath.bytes(path), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                try walk(path, into: &result)
            } else {
                result.files.append(path)
            }
        }
        return result
    }

    private static func walk(_ folder: String, into result: inout Expansion) throws {
        for name in try directoryEntries(folder) where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard lstat(FileSystemPath.bytes(path), &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try walk(path, into: &result)
            case S_IFREG, S_IFLNK:
                guard result.files.count < limit else { result.skipped.append((path, "more than \(limit) files")); continue }
                if let reason = reasonToSkip(path) { result.skipped.append((path, reason)) } else { result.files.append(path) }
            default:
                result.skipped.append((path, "not a regular file"))
            }
        }
    }

    /// A failure's message without the file's name, which the note prints before it: `cannot open PATH:
    /// Permission denied` → `cannot open: Permission denied`.
    static func reason(_ message: String, path: String) -> String {
        var text = Substring(message)
        if text.hasPrefix(path + ": ") { text = text.dropFirst(path.count + 2) } else if text.hasPrefix(path + " ") { text = text.dropFirst(path.count + 1) }
        return String(text).replacingOccurrences(of: " " + path + ":", with: ":").replacingOccurrences(of: " " + path, with: "")
    }

    /// Why a file found in a folder is not an input (nil: it reads as a log or a crash report).
    static func reasonToSkip(_ path: String) -> String? {
        var info = stat()
        guard stat(FileSystemPath.bytes(path), &info) == 0 else { return "a dangling link" }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return "a link to something that is not a file" }
        guard info.st_size > 0 else { return "empty" }
        do {
            let decoded = try TextDecoding.prepare(try FileByteSource(path: path))
            let bytes = try SampledSource.sampling(decoded, upTo: FormatDetector.sampleBytes).prefix[...]
            let format = try FormatDetector.detect(bytes, sourceName: path)
            if format == .xcode && !FormatDetector.hasEntryWord(bytes) {
                return "not a log or a crash report (no console entry in its first 64 KiB)"
            }
            return nil
        } catch let failure as ToolFailure {
            if failure.message.contains("binary data") { return "binary data, not text" }
            if failure.message.contains("SQLite database") { return "an SQLite database (give a store with --store)" }
            return reason(failure.message, path: path)
        } catch {
            return "unreadable"
        }
    }
}
