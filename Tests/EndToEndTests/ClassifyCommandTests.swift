import Foundation
import Testing

/// End-to-end: the built `cdlog` binary, its exit codes, its output contract and the samples.
@Suite struct ClassifyCommandTests {
    static let logSample = """
    2021-08-10 15:27:55.123456+0800 MyApp[1234:567890] CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110 "An error occurred during persistent store migration." UserInfo={NSLocalizedFailureReason=Cannot migrate store in-place}
    2021-08-10 15:27:56.000000+0800 MyApp[1234:567890] unrelated line

    """

    @Test func jsonLinesFollowTheContract() throws {
        let result = try BinaryRunner.cdlog(["classify", "--format", "jsonl", "-"], stdin: Data(Self.logSample.utf8))
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let entry = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as! [String: Any]
        for key in ["type", "source", "line", "endLine", "category", "severity", "rule", "title", "message", "fields", "advice", "timestamp", "process"] {
            #expect(entry.keys.contains(key), "missing \(key)")
        }
        #expect(entry["type"] as? String == "entry")
        #expect(entry["source"] as? String == "-")
        #expect(entry["line"] as? Int == 1)
        #expect(entry["category"] as? String == "migration")
        #expect(entry["timestamp"] as? String == "2021-08-10T15:27:55.123456+08:00")
        #expect(entry["process"] as? String == "MyApp")
        #expect((entry["fields"] as? [String: String])?["code"] == "134110")
        let summary = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as! [String: Any]
        #expect(summary["type"] as? String == "summary")
        #expect(summary["entries"] as? Int == 2)
        #expect(summary["classified"] as? Int == 1)
        #expect((summary["byCategory"] as? [String: Int])?["migration"] == 1)
    }

    @Test func allIncludesUnclassifiedWithNullCategory() throws {
        let result = try BinaryRunner.cdlog(["classify", "--all", "--format", "jsonl"], stdin: Data(Self.logSample.utf8))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("\"category\":null"))
    }

    @Test func exitCodes() throws {
        let input = Data(Self.logSample.utf8)
        #expect(try BinaryRunner.cdlog(["classify"], stdin: input).status == 0)
        #expect(try BinaryRunner.cdlog(["classify", "--fail-on", "error"], stdin: input).status == 1)
        #expect(try BinaryRunner.cdlog(["classify", "--fail-on", "fatal"], stdin: input).status == 0)
        let missing = try BinaryRunner.cdlog(["classify", "/nonexistent/file.log"])
        #expect(missing.status == 2)
        #expect(missing.stderr.split(separator: "\n").count == 1)
        #expect(missing.stderr.contains("cannot open /nonexistent/file.log"))
        #expect(missing.stdout.isEmpty)
        let usage = try BinaryRunner.cdlog(["classify", "--format", "yaml"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("'yaml' is invalid for '--format <format>'. Please provide one of 'text', 'jsonl', 'json', 'markdown' or 'otlp'"))
        #expect(usage.stderr.split(separator: "\n").count == 1)
        // A long list of valid values, which the parser prints one per line, stays on the one line.
        let inputFormat = try BinaryRunner.cdlog(["classify", "--input-format", "xml"])
        #expect(inputFormat.status == 2)
        #expect(inputFormat.stderr.split(separator: "\n").count == 1)
        #expect(inputFormat.stderr.contains("one of the following: auto, xcode, nslog,"), "\(inputFormat.stderr)")
        // A plain capture read as JSON is refused, never read as zero entries; an empty one is zero entries.
        for format in ["log-json", "log-ndjson"] {
            let forced = try BinaryRunner.cdlog(["classify", "--input-format", format], stdin: Data("App started\nCoreData: error: Failed to save\n".utf8))
            #expect(forced.status == 2, "\(format)")
            #expect(forced.stderr.contains("no JSON object in it") && forced.stderr.split(separator: "\n").count == 1, "\(forced.stderr)")
            #expect(try BinaryRunner.cdlog(["classify", "--input-format", format], stdin: Data()).status == 0)
        }
        // Option values are typed and read in any case.
        #expect(try BinaryRunner.cdlog(["classify", "--format", "JSONL", "--fail-on", "Error", "--input-format", "AUTO"], stdin: input).status == 1)
        #expect(try BinaryRunner.cdlog(["--bogus-flag"]).status == 2)
        let help = try BinaryRunner.cdlog(["classify", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--fail-on"))
        let directory = try BinaryRunner.cdlog(["classify", "Sources"])
        #expect(directory.status == 2)
        // A folder is read file by file (issue 26); one of source code holds no log: one error line after the notes.
        #expect(directory.stderr.contains("cdlog: error: no log or crash report found in Sources"))
        #expect(directory.stderr.split(separator: "\n").count <= 22, "at most 20 notes and a summary line")
        // A negative number is the option's value, and the option's own check answers (it said "Missing value").
        for arguments in [["classify", "--threads", "-1"], ["classify", "--threads=-1"], ["report", "--max-rows", "-5"]] {
            let negative = try BinaryRunner.cdlog(arguments, stdin: input)
            #expect(negative.status == 2, "\(arguments)")
            #expect(negative.stderr.contains("takes a number from 1"), "\(arguments): \(negative.stderr)")
        }
        // A file name with escape sequences is shown with them made visible.
        let escaped = try BinaryRunner.cdlog(["classify", "/nonexistent/\u{1B}]0;title\u{07}x.log"])
        #expect(escaped.status == 2)
        #expect(!escaped.stderr.contains("\u{1B}") && escaped.stderr.contains("\\x1B]0;title\\x07x.log"), "\(escaped.stderr)")
    }

    /// A user pattern that backtracks badly ends quickly and is named on stderr.
    @Test func backtrackingUserRuleIsCutOffAndNamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        rules:
          - id: user.evasive
            title: slow
            category: store
            severity: error
            patterns:
              - 'CoreData: (\\w|\\d)+$'
            advice: none
            examples:
              match: ['CoreData: abc']
        """.write(to: dir.appendingPathComponent("slow.yaml"), atomically: true, encoding: .utf8)
        let log = Data(String(repeating: "CoreData: " + String(repeating: "1", count: 40) + "!\n", count: 2000).utf8)
        let started = Date()
        let r = try BinaryRunner.cdlog(["classify", "--rules", dir.path], stdin: log)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(r.stderr.hasPrefix("cdlog: warning: rule user.evasive, patterns[0]"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func binaryInputIsRefusedInOneLine() throws {
        let junk = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 % 17) })
        let result = try BinaryRunner.cdlog(["classify"], stdin: junk)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func brokenPipeEndsQuietly() throws {
        let line = "CoreData: error: Error Domain=NSCocoaErrorDomain Code=134110 \"x\"\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-pipe-\(getpid()).log")
        try String(repeating: line, count: 200_000).write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let binary = BinaryRunner.binary("cdlog").path
        let result = try BinaryRunner.shell("'\(binary)' classify --format jsonl '\(path.path)' | head -1 >/dev/null; echo \"${PIPESTATUS[0]}\"")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(result.stderr.isEmpty)
    }

    /// `log stream | cdlog classify`: a finding is written when the stream goes quiet, not when it ends
    /// (the writer here keeps the pipe open for 5 s after its line). One and two threads.
    @Test func liveStreamFindingsAppearWhenTheStreamPauses() throws {
        let binary = BinaryRunner.binary("cdlog").path
        let line = "2024-03-01 10:00:00.123456+0100 0x1f Error 0x0 123 0 Notes: (CoreData) [com.apple.coredata:error] "
            + "CoreData: error: Unresolved error Error Domain=NSCocoaErrorDomain Code=134110"
        let script = (1...2).map { threads in
            """
            ( start=$(date +%s%N)
              { printf '%s\\n' '\(line)'; sleep 5; } | '\(binary)' classify --format jsonl --threads \(threads) \
                | { IFS= read -r first; echo "threads=\(threads) ms=$(( ($(date +%s%N) - start) / 1000000 )) $first"; cat >/dev/null; } ) &
            """
        }.joined(separator: "\n") + "\nwait"
        let result = try BinaryRunner.shell(script)
        let reports = result.stdout.split(separator: "\n")
        #expect(reports.count == 2, "\(result.stdout) \(result.stderr)")
        for report in reports {
            let milliseconds = report.split(separator: " ").first { $0.hasPrefix("ms=") }.flatMap { Int($0.dropFirst(3)) } ?? .max
            #expect(milliseconds < 3_500, "\(report)")
            #expect(report.contains("\"coredata.migration.incompatible-model\"") || report.contains("134110"), "\(report)")
        }
    }

    @Test func fullDiskOutputIsAnError() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let binary = BinaryRunner.binary("cdlog").path
        let result = try BinaryRunner.shell("printf 'CoreData: error: Code=134110 x\\n' | '\(binary)' classify > /dev/full; echo \"status=$?\"")
        #expect(result.stdout.contains("status=2"))
        #expect(result.stderr.contains("cannot write to stdout"))
    }

    @Test func copiedBinaryUsesEmbeddedRules() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-copy-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("cdlog")
        try FileManager.default.copyItem(at: BinaryRunner.binary("cdlog"), to: copy)
        let list = try BinaryRunner.run(copy, ["rules", "list", "--format", "json"], directory: directory)
        #expect(list.status == 0)
        let rules = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["rules"] as? [[String: Any]]
        #expect((rules?.count ?? 0) > 0)
        let classify = try BinaryRunner.run(copy, ["classify", "--format", "jsonl"], stdin: Data(Self.logSample.utf8), directory: directory)
        #expect(classify.stdout.contains("\"category\":\"migration\""))
    }

    @Test func badUserRuleFileFailsWithLocationAndCaret() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-rules-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.yaml")
        try "rules:\n  - id: my.rule\n    title: Mine\n    category: store\n    severity: error\n    patterns:\n      - 'Code=(1341'\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.cdlog(["classify", "--rules", directory.path], stdin: Data())
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.contains("bad.yaml:7:") == true)
        #expect(lines.first?.contains("pattern does not compile") == true)
        #expect(lines.last?.hasSuffix("^") == true)
    }

    @Test func userRulesAddAndTest() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-userrules-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        rules:
          - id: myapp.sync-banner
            title: MyApp sync banner shown
            category: sync
            severity: info
            patterns: ['MyAppSyncBanner shown']
            examples:
              match: ['MyAppSyncBanner shown for account', 'ui: MyAppSyncBanner shown']
              nomatch: ['MyAppSyncBanner hidden']
        """.write(to: directory.appendingPathComponent("mine.yaml"), atomically: true, encoding: .utf8)
        let test = try BinaryRunner.cdlog(["rules", "test", directory.path])
        #expect(test.status == 0, "\(test.stdout)")
        #expect(test.stdout.contains("1 rule, 3 examples: 3 passed, 0 failed"))
        let classify = try BinaryRunner.cdlog(["classify", "--rules", directory.path, "--format", "jsonl"], stdin: Data("MyAppSyncBanner shown now\n".utf8))
        #expect(classify.stdout.contains("\"rule\":\"myapp.sync-banner\""))
        // A pattern that no example shows working fails the test, named with its file and line.
        try """
        rules:
          - id: myapp.sync-banner
            title: MyApp sync banner shown
            category: sync
            severity: info
            patterns: ['MyAppSyncBanner shown', 'MyAppSyncBanner displayed']
            examples:
              match: ['MyAppSyncBanner shown for account']
        """.write(to: directory.appendingPathComponent("mine.yaml"), atomically: true, encoding: .utf8)
        let unshown = try BinaryRunner.cdlog(["rules", "test", directory.path])
        #expect(unshown.status == 1)
        #expect(unshown.stdout.contains("pattern 2 (`MyAppSyncBanner displayed`) matches none of the rule's `match` examples"))
        #expect(unshown.stdout.contains("1 pattern is matched by none of their rule's examples"))
    }

    @Test func textAndMarkdownFormats() throws {
        let text = try BinaryRunner.cdlog(["classify", "--color", "always"], stdin: Data(Self.logSample.utf8))
        #expect(text.stdout.contains("\u{1B}["))
        #expect(text.stdout.contains("-:1"))
        let plain = try BinaryRunner.cdlog(["classify"], stdin: Data(Self.logSample.utf8))
        #expect(!plain.stdout.contains("\u{1B}["))
        let markdown = try BinaryRunner.cdlog(["classify", "--format", "markdown"], stdin: Data(Self.logSample.utf8))
        #expect(markdown.stdout.contains("| Where | Severity | Category | Finding |"))
        let json = try BinaryRunner.cdlog(["classify", "--format", "json"], stdin: Data(Self.logSample.utf8))
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((document?["entries"] as? [Any])?.count == 1)
        #expect(document?["summary"] != nil)
    }

    /// Issue 26: an input with nothing relevant says why that may be and what to capture instead (text
    /// only; the JSON contract is unchanged).
    @Test func nothingRelevantSaysWhy() throws {
        let noise = Data("hello from the app\n[UIKitCore] Snapshotting a view that has not been rendered\n".utf8)
        let text = try BinaryRunner.cdlog(["classify"], stdin: noise)
        #expect(text.stdout.contains("0 classified") && text.stdout.contains("Capture again with: log show"))
        let json = try BinaryRunner.cdlog(["classify", "--format", "jsonl"], stdin: noise)
        #expect(!json.stdout.contains("Capture again"))
        let report = try BinaryRunner.cdlog(["report"], stdin: noise)
        #expect(report.stdout.contains("No failure found") && report.stdout.contains("Capture again with"))
        // Something classified: no such hint.
        #expect(!(try BinaryRunner.cdlog(["classify"], stdin: Data(Self.logSample.utf8))).stdout.contains("Capture again"))
    }
}

/// Issue 22: inputs are opened one at a time, so a run over more files than the descriptor limit works
/// (before: every file was opened first, and 1 100 files failed at `ulimit -n 1024`).
@Suite struct ManyInputFilesTests {
    @Test(arguments: [["classify"], ["classify", "--threads", "2"], ["report", "--format", "json"]])
    func moreFilesThanDescriptors(_ arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for i in 1...300 {
            let line = "2024-01-01 10:00:01.000000+0000 App[1:2] CoreData: error: Store failed to load. NSSQLiteErrorDomain=11 file \(i)\n"
            try Data(line.utf8).write(to: directory.appendingPathComponent("f\(i).log"))
        }
        let cdlog = BinaryRunner.binary("cdlog").path
        let r = try BinaryRunner.shell("cd '\(directory.path)' && ulimit -n 64 && '\(cdlog)' \(arguments.joined(separator: " ")) f*.log")
        #expect(r.status == 0, "\(r.stderr)")
        let count = arguments[0] == "report" ? r.stdout.components(separatedBy: "\"f").count - 1 : r.stdout.components(separatedBy: "SQLite database corrupt").count - 2
        #expect(count >= 300, "\(arguments): every file was read")
    }
}

/// Issue 22: file names that are not valid UTF-8 (any bytes are allowed on Linux) are opened by their
/// bytes and shown with `\xNN` (before: re-encoded, then "No such file or directory").
@Suite struct NonUTF8FileNameTests {
    @Test func logsStoresAndOutputsByTheirBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cdlog = BinaryRunner.binary("cdlog").path, walcheck = BinaryRunner.binary("walcheck").path
        let line = "2024-01-01 10:00:01.000000+0000 App[1:2] CoreData: error: Store failed to load. NSSQLiteErrorDomain=11"
        let r = try BinaryRunner.shell("""
        cd '\(directory.path)' || exit 9
        printf '%s\\n' '\(line)' > $'a\\xff.log'
        mkdir $'d\\xfe' && sqlite3 $'d\\xfe/s\\xfd.sqlite' 'PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);' >/dev/null || exit 9
        echo "== classify"; '\(cdlog)' classify $'a\\xff.log' || exit 1
        echo "== walcheck"; '\(walcheck)' --format json $'d\\xfe/s\\xfd.sqlite' || exit 3
        echo "== report"; '\(cdlog)' report --store $'d\\xfe/s\\xfd.sqlite' $'a\\xff.log' --output $'o\\xfc.md' || exit 4
        test -s $'o\\xfc.md' || exit 5
        '\(cdlog)' report $'a\\xff.log' --output $'a\\xff.log' 2>&1; echo "refused: $?"
        """)
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(r.stdout.contains("a\\xFF.log:1  error"), "the finding names the file with its byte shown")
        #expect(r.stdout.contains("\"path\":\"d\\\\xFE/s\\\\xFD.sqlite\""), "walcheck read the store by its bytes")
        #expect(r.stdout.contains("refusing to write a\\xFF.log") && r.stdout.contains("refused: 2"), "the output guard sees the same file")
    }
}

/// Issue 26: folders as inputs (a folder of crash reports, a ticket's attachments): read recursively, each
/// file picked by its content; prose, binaries and databases are skipped with a note on stderr.
@Suite struct FolderInputTests {
    @Test(arguments: [["classify", "--format", "jsonl"], ["report", "--format", "json"]])
    func aFolderIsReadFileByFile(_ arguments: [String]) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-folder-\(UUID().uuidString)")
        let sub = root.appendingPathComponent("attachments/logs")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let package = BinaryRunner.packageRoot
        try FileManager.default.copyItem(at: package.appendingPathComponent("Samples/crash/dead10cc-sqlite.crash"), to: root.appendingPathComponent("dead10cc.crash"))
        try FileManager.default.copyItem(at: package.appendingPathComponent("Samples/logs/migration-failure.log"), to: sub.appendingPathComponent("app.log"))
        try Data("# Notes\n\nThe app crashed when I opened it. See the attached logs.\n".utf8).write(to: root.appendingPathComponent("README.md"))
        try Data([0, 1, 2, 3, 0, 0, 0, 9, 0, 0, 1, 0, 0, 0]).write(to: root.appendingPathComponent("blob.bin"))
        try Data().write(to: root.appendingPathComponent(".DS_Store"))
        let r = try BinaryRunner.cdlog(arguments + [root.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("dead10cc.crash") && r.stdout.contains("app.log"), "both files were read")
        #expect(r.stdout.contains("crash.file-lock-at-suspension") && r.stdout.contains("134110"))
        #expect(!r.stdout.contains("README.md") && !r.stdout.contains("blob.bin"))
        #expect(r.stderr.contains("skipped \(root.path)/README.md: not a log or a crash report"))
        #expect(r.stderr.contains("skipped \(root.path)/blob.bin: binary data"))
        #expect(!r.stderr.contains(".DS_Store"))
    }

    /// A test run's output that quotes a crash report, a Crashlytics block and AppKit's uncaught exception
    /// name no console entry word, and are still logs: a folder walk keeps them.
    @Test func testOutputQuotingACrashIsKeptFromAFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-crashes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: BinaryRunner.packageRoot.appendingPathComponent("Samples/crash/embedded-in-test-output.log"),
                                         to: root.appendingPathComponent("test-run.log"))
        try Data("Crashed: com.apple.main-thread\n0  libsqlite3.dylib  0x181cce03c sqlite3_step + 9096\n".utf8).write(to: root.appendingPathComponent("crashlytics.txt"))
        try Data("An uncaught exception was raised\n+entityForName: nil is not a legal NSManagedObjectContext parameter searching for entity name 'Note'\n".utf8).write(to: root.appendingPathComponent("appkit.txt"))
        let r = try BinaryRunner.cdlog(["classify", "--format", "jsonl", root.path])
        #expect(!r.stderr.contains("skipped"), "\(r.stderr)")
        #expect(r.stdout.contains("test-run.log") && r.stdout.contains("crash.swift-trap"))
        #expect(r.stdout.contains("crashlytics.txt") && r.stdout.contains("appkit.txt"))
    }

    @Test func aFolderWithNothingToReadIsOneLine() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("just prose\n".utf8).write(to: root.appendingPathComponent("notes.txt"))
        let r = try BinaryRunner.cdlog(["classify", root.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cdlog: error: no log or crash report found in \(root.path)"))
    }
}

/// Issue 26: shell completions complete files and the values of --format, --fail-on, --color, …
@Suite struct CompletionTests {
    @Test func valuesAndFilesComplete() throws {
        let zsh = try BinaryRunner.cdlog(["--generate-completion-script", "zsh"])
        #expect(zsh.status == 0)
        #expect(zsh.stdout.contains("'jsonl'") && zsh.stdout.contains("'fatal'") && zsh.stdout.contains("'always'"))
        #expect(zsh.stdout.contains("_files"), "file arguments complete")
        let walcheck = try BinaryRunner.run(BinaryRunner.binary("walcheck"), ["--generate-completion-script", "bash"])
        #expect(walcheck.status == 0 && walcheck.stdout.contains("markdown"))
    }
}
