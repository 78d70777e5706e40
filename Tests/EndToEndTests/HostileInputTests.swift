import Foundation
import Testing

/// `cdlog classify` on hostile input, through the built binary (issue 8): streamed in bounded memory,
/// exit 0 or a one-line exit 2, never a trap.
@Suite struct HostileInputTests {
    /// Bytes of the no-newline stream: 2 GiB by default (about 8 s here); CDLOG_HOSTILE_BYTES overrides
    /// (a `head -c` size such as 256M).
    static let streamSize = ProcessInfo.processInfo.environment["CDLOG_HOSTILE_BYTES"] ?? "2G"

    /// Peak RSS (KiB) of `command` (one program with arguments) fed by `producer`, and its output.
    static func measure(producer: String, command: String) throws -> (rssKiB: Int, status: Int32, stdout: String, stderr: String) {
        let marker = "RSS_KIB="
        let script: String
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
            script = "\(producer) | /usr/bin/time -f '\(marker)%M' \(command)"
        } else {
            // No GNU time: sample the child's VmHWM (its peak RSS) from /proc until it exits.
            script = """
            \(producer) | \(command) & pid=$!; peak=0
            while kill -0 $pid 2>/dev/null; do
              v=$(sed -n 's/^VmHWM:[^0-9]*\\([0-9]*\\).*/\\1/p' /proc/$pid/status 2>/dev/null); [ -n "$v" ] && peak=$v; sleep 0.05
            done
            wait $pid; s=$?; echo "\(marker)$peak" >&2; exit $s
            """
        }
        let r = try BinaryRunner.shell(script)
        let rss = r.stderr.split(separator: "\n").last { $0.hasPrefix(marker) }.flatMap { Int($0.dropFirst(marker.count)) } ?? -1
        let stderr = r.stderr.split(separator: "\n").filter { !$0.hasPrefix(marker) }.joined(separator: "\n")
        return (rss, r.status, r.stdout, stderr)
    }

    @Test func twoGigabytesWithoutANewlineStreamInBoundedMemory() throws {
        let cdlog = BinaryRunner.binary("cdlog").path
        for threads in ["1", "2"] {
            let started = Date()
            let r = try Self.measure(producer: "head -c \(Self.streamSize) /dev/zero | tr '\\0' a",
                                     command: "'\(cdlog)' classify --all --format jsonl --threads \(threads)")
            let seconds = Date().timeIntervalSince(started)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.isEmpty, "\(r.stderr)")
            let lines = r.stdout.split(separator: "\n")
            #expect(lines.count == 2, "threads \(threads): one truncated entry and the summary")
            #expect(lines.last?.contains("\"entries\":1,") == true)
            #expect(lines.last?.contains("\"truncatedEntries\":1") == true)
            #expect(lines.first?.contains("\"truncated\":true") == true)
            #expect(r.rssKiB > 0 && r.rssKiB < 64 * 1024, "threads \(threads): peak RSS \(r.rssKiB) KiB")
            print("HostileInputTests: \(Self.streamSize) without newline, --threads \(threads): \(String(format: "%.1f", seconds)) s, peak RSS \(r.rssKiB) KiB")
        }
    }

    /// Inputs built to hurt: each either classifies (exit 0) or is refused in one line (exit 2).
    @Test func hostileInputsNeverTrap() throws {
        let depth = 100_000
        let inputs: [(String, Data)] = [
            ("empty", Data()),
            ("only newlines", Data(repeating: 0x0A, count: 100_000)),
            ("only NULs", Data(repeating: 0, count: 100_000)),
            ("invalid UTF-8", Data((0..<50_000).map { UInt8(0x80 | ($0 % 64)) })),
            ("CR only line ends", Data(String(repeating: "CoreData: error: Code=134110 x\r", count: 5000).utf8)),
            // (A million one-byte lines: HostileLogInputTests.aMillionOneByteLines; through the debug binary
            // every entry costs a full classification, so 5 000 here.)
            ("5 000 one-byte lines", Data(String(repeating: "a\n", count: 5_000).utf8)),
            ("SQLite header", Data("SQLite format 3\0".utf8) + Data(repeating: 0, count: 4000)),
            ("ndjson nested \(depth) deep", Data(("{\"eventMessage\":\"CoreData: error: x\",\"a\":" + String(repeating: "[", count: depth) + "\n").utf8)),
            ("log json nested \(depth) deep", Data(("[" + String(repeating: "{\"a\":", count: depth)).utf8)),
            (".ips header without body", Data("{\"bug_type\":\"309\",\"incident_id\":\"A\",\"app_name\":\"Recipes\"}\n".utf8)),
            (".ips body nested \(depth) deep", Data(("{\"bug_type\":\"309\"}\n{\"exception\":" + String(repeating: "[", count: depth)).utf8)),
            ("crash header then junk", Data("Incident Identifier: X\nException Type: EXC_CRASH\nProcess: A\n\u{1}\u{2}\u{3}".utf8)),
            ("MetricKit cut", Data("{\"crashDiagnostics\":[{\"callStackTree\":{\"callStacks\":[".utf8)),
        ]
        for (label, data) in inputs {
            for format in data.count < 20_000 ? ["text", "jsonl", "json", "markdown"] : ["jsonl"] {
                let r = try BinaryRunner.cdlog(["classify", "--all", "--format", format], stdin: data)
                #expect(r.status == 0 || r.status == 2, "\(label) \(format): exit \(r.status) \(r.stderr)")
                if r.status == 2 {
                    #expect(r.stderr.hasPrefix("cdlog: error: "), "\(label): \(r.stderr)")
                    #expect(r.stderr.split(separator: "\n").count == 1, "\(label): \(r.stderr)")
                } else {
                    #expect(r.stderr.isEmpty, "\(label) \(format): \(r.stderr)")
                }
                for marker in ["Fatal error", "Stack dump", "Backtrace", "Illegal instruction", "Segmentation"] {
                    #expect(!r.stderr.contains(marker), "\(label): \(r.stderr)")
                }
            }
        }
    }

    /// Reading never changes the input file (bytes and mtime), whatever it holds.
    @Test func inputFilesAreNeverModified() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-ro-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("input.log")
        try Data("CoreData: error: Code=134110 x\n\u{0}\u{FF}\r\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: file.path)
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        let bytes = try Data(contentsOf: file)
        _ = try BinaryRunner.cdlog(["classify", "--format", "jsonl", file.path])
        _ = try BinaryRunner.cdlog(["classify", "--input-format", "crash", file.path])
        #expect(try Data(contentsOf: file) == bytes)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["input.log"])
    }
}
