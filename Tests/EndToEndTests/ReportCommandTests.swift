import Foundation
import Testing

/// End-to-end: `cdlog report` as a user runs it, including the seed story of docs/domain.md, "The launch-watchdog story" with a store
/// made by the real sqlite3 CLI.
@Suite struct ReportCommandTests {
    static let crash = "Tests/CDLogKitTests/Fixtures/crash/ips-watchdog-migration-wal-checkpoint-constructed.ips"
    static let console = "Samples/report/notingpro-launch.log"

    /// Builds the seed store (about `megabytes` MiB of pending WAL) with Samples/report/make-seed-store.sh.
    static func seedStore(_ megabytes: Int = 24) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") || (try? BinaryRunner.shell("command -v sqlite3"))?.status == 0 else {
            return nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-report-e2e-\(UUID().uuidString)").path
        let made = try BinaryRunner.shell("Samples/report/make-seed-store.sh '\(dir)' \(megabytes)")
        #expect(made.status == 0, "\(made.stderr)")
        return dir + "/NotingPro.sqlite"
    }

    @Test func seedStoryNamesCauseWALSizeMainThreadAndFix() throws {
        guard let store = try Self.seedStore() else {
            print("skipped: the sqlite3 CLI is not installed (scripts/install-deps.sh installs it)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent) }
        let result = try BinaryRunner.cdlog(["report", Self.console, Self.crash, "--store", store])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        // The headline comes first and says it all in one sentence.
        let diagnosis = try #require(out.components(separatedBy: "## Diagnosis").dropFirst().first)
        let headline = try #require(diagnosis.split(separator: "\n").first { $0.hasPrefix("> ") })
        #expect(headline.contains("killed by the watchdog (0x8badf00d"))
        #expect(headline.range(of: #"checkpointed 2\d\.\d MiB of WAL"#, options: .regularExpression) != nil, "\(headline)")
        #expect(headline.contains("before migrating the store on the main thread"))
        // Evidence with file and line, the fix.
        #expect(out.contains("`\(Self.crash):1-402`"))
        #expect(out.contains("`\(Self.console):4-11`"))
        #expect(out.contains("`\(store)`"))
        #expect(out.contains("Load the persistent stores off the main thread"))
        #expect(out.contains("journal_size_limit near 10–20 MB"))
        // The rest of the report.
        for section in ["## Environment", "## Timeline", "## Counts", "## Crash reports", "## Store", "## Appendix"] {
            #expect(out.contains(section), "missing \(section)")
        }
        #expect(out.contains("| Device | iPad13,4 |"))
        #expect(out.contains("NSPersistenceFrameworkVersion 1345"))
        #expect(out.contains("-[NSSQLiteConnection _walCheckpointWithMode:]"))
        #expect(out.contains("`checkpoint-launch-risk`"))
        #expect(out.contains("Migrating store NotingPro.sqlite from model version <n> to <n>"))

        // JSON carries the same.
        let json = try BinaryRunner.cdlog(["report", "--format", "json", Self.console, Self.crash, "--store", store])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let head = object["headline"] as! [String: Any]
        #expect(head["id"] as? String == "launch.watchdog.checkpoint-before-migration")
        #expect((object["stores"] as? [[String: Any]])?.first?["walcheck"] is [String: Any])

        // Deterministic: byte-identical output, every format.
        for format in ["markdown", "html", "json"] {
            let a = try BinaryRunner.cdlog(["report", "--format", format, "--redact", Self.console, Self.crash, "--store", store])
            let b = try BinaryRunner.cdlog(["report", "--format", format, "--redact", Self.console, Self.crash, "--store", store])
            #expect(a.status == 0 && a.stdout == b.stdout, "\(format) output differs between runs")
        }
        // --fail-on like classify.
        #expect(try BinaryRunner.cdlog(["report", "--fail-on", "fatal", Self.console, Self.crash]).status == 1)
        #expect(try BinaryRunner.cdlog(["report", "--fail-on", "fatal", Self.console]).status == 0)
    }

    @Test func stdinOutputFileAndHTML() throws {
        let input = try Data(contentsOf: BinaryRunner.packageRoot.appendingPathComponent("Samples/logs/no-icloud-account.log"))
        let piped = try BinaryRunner.cdlog(["report"], stdin: input)
        #expect(piped.status == 0)
        #expect(piped.stdout.contains("**Inputs:** `-`"))
        #expect(piped.stdout.contains("no iCloud account is signed in"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-report-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: file) }
        let written = try BinaryRunner.cdlog(["report", "--format", "html", "--output", file.path, "Samples/logs/no-icloud-account.log"])
        #expect(written.status == 0)
        #expect(written.stdout.isEmpty)
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<figure class=\"chart\">"))
        #expect(!html.contains("<script"))
    }

    @Test func redactionEndToEnd() throws {
        let log = """
        CoreData: error: CoreData+CloudKit: failed for recordName=Note-by-alice, owner ownerName=_0123456789abcdef0123456789abcdef in iCloud.com.alicesoft.Notes, user alice@example.com, store /Users/alice/Library/Notes.sqlite

        """
        let plain = try BinaryRunner.cdlog(["report", "--format", "json"], stdin: Data(log.utf8))
        #expect(plain.stdout.contains("alice@example.com"))
        let redacted = try BinaryRunner.cdlog(["report", "--format", "json", "--redact"], stdin: Data(log.utf8))
        #expect(redacted.status == 0)
        for secret in ["alice@example.com", "Note-by-alice", "_0123456789abcdef0123456789abcdef", "iCloud.com.alicesoft", "/Users/alice/"] {
            #expect(!redacted.stdout.contains(secret), "\(secret) left in the output")
        }
        #expect(redacted.stdout.contains("recordName=<record-1>"))
        #expect(redacted.stdout.contains("CoreData+CloudKit: failed for"))
    }

    @Test func badInputIsOneLineAndExitTwo() throws {
        for arguments in [["report", "/nonexistent/x.log"], ["report", "--store", "/nonexistent/x.sqlite", "Samples/logs/merge-conflicts.log"],
                          ["report", "--store", "Samples/logs/merge-conflicts.log", "Samples/logs/merge-conflicts.log"],
                          ["report", "--format", "pdf"], ["report", "--fail-on", "bad"],
                          ["report", "--output", "/nonexistent/dir/r.md", "Samples/logs/merge-conflicts.log"]] {
            let result = try BinaryRunner.cdlog(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("cdlog: error: "), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("\n\n"))
        }
        let help = try BinaryRunner.cdlog(["report", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--redact"))
    }
}

/// `report --threads N`, as `classify`'s: the same report for every N, and a bad N is a usage error.
@Suite struct ReportThreadsTests {
    @Test func theReportIsTheSameOnEveryThreadCount() throws {
        // Large enough (about 3 MiB) to be cut into blocks on several threads.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-report-threads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = try String(contentsOf: BinaryRunner.packageRoot.appendingPathComponent(ReportCommandTests.console), encoding: .utf8)
        let big = directory.appendingPathComponent("big.log")
        try Data(String(repeating: sample, count: max(1, (3 << 20) / max(1, sample.utf8.count))).utf8).write(to: big)
        let one = try BinaryRunner.cdlog(["report", "--format", "json", "--threads", "1", big.path])
        let two = try BinaryRunner.cdlog(["report", "--format", "json", "--threads", "2", big.path])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr) \(two.stderr)")
        #expect(one.stdout == two.stdout)
        let bad = try BinaryRunner.cdlog(["report", "--threads", "0", big.path])
        #expect(bad.status == 2 && bad.stderr.contains("--threads takes a number from 1 to 256"), "\(bad.stderr)")
    }
}

/// Issue 26: `report --store X` with no file reads stdin only when `-` is given; a pipe a CI runner or a
/// parent process leaves open does not make it wait (before: `(sleep 5) | cdlog report --store X` waited).
@Suite struct ReportStoreStdinTests {
    @Test func anOpenPipeOnStdinIsNotRead() throws {
        guard (try? BinaryRunner.shell("command -v sqlite3"))?.status == 0 else {
            print("skipped: the sqlite3 CLI is not installed (scripts/install-deps.sh installs it)")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-store-stdin-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cdlog = BinaryRunner.binary("cdlog").path
        let started = Date()
        let r = try BinaryRunner.shell("""
        mkdir -p '\(dir)' && sqlite3 '\(dir)/s.sqlite' 'CREATE TABLE t(x); INSERT INTO t VALUES (1);' || exit 9
        # The writer that keeps the pipe open must not inherit the runner's other descriptors.
        for fd in $(ls /dev/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null; done
        mkfifo '\(dir)/in' && { sleep 30 > '\(dir)/in' & holder=$!; }
        start=$(date +%s)
        timeout 15 '\(cdlog)' report --store '\(dir)/s.sqlite' --format json < '\(dir)/in' > '\(dir)/out.json'; echo "rc=$?"
        echo "seconds=$(( $(date +%s) - start ))"
        kill $holder 2>/dev/null
        """)
        #expect(Date().timeIntervalSince(started) < 20, "the report waited for stdin")
        #expect(r.stdout.contains("seconds=0") || r.stdout.contains("seconds=1"), "\(r.stdout)")
        #expect(r.stdout.contains("rc=0"), "\(r.stdout) \(r.stderr)")
    }
}

/// Issue 26: `cdlog rules explain` knows the diagnosis ids that reports print.
@Suite struct ExplainDiagnosisTests {
    @Test func diagnosisIdsAreExplained() throws {
        let r = try BinaryRunner.cdlog(["rules", "explain", "launch.watchdog.checkpoint"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("(report diagnosis)") && r.stdout.contains("holds when:") && r.stdout.contains("what to do:"))
        let jetsam = try BinaryRunner.cdlog(["rules", "explain", "termination.jetsam"])
        #expect(jetsam.status == 0 && jetsam.stdout.contains("Jetsam event report naming the app"))
        let unknown = try BinaryRunner.cdlog(["rules", "explain", "launch.watchdog"])
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean") && unknown.stderr.contains("launch.watchdog.checkpoint"))
        // The top-level `explain` answers the same ids (a user copies them from a report or a finding).
        let top = try BinaryRunner.cdlog(["explain", "launch.watchdog.checkpoint"])
        #expect(top.status == 0 && top.stdout == r.stdout)
        let rule = try BinaryRunner.cdlog(["explain", "coredata.store.sqlite.busy"])
        #expect(rule.status == 0 && rule.stdout.contains("category:  store"))
        #expect(try BinaryRunner.cdlog(["explain", "no.such.id"]).status == 2)
    }

    /// Issue 26: option values are matched without regard to case, --format as --fail-on.
    @Test func optionValuesIgnoreCase() throws {
        let input = Data("CoreData: error: -executeRequest: encountered exception = I/O error for database at /x.sqlite. SQLite error code:10, NSSQLiteErrorDomain=10\n".utf8)
        let upper = try BinaryRunner.cdlog(["classify", "--format", "JSONL", "--fail-on", "ERROR"], stdin: input)
        let lower = try BinaryRunner.cdlog(["classify", "--format", "jsonl", "--fail-on", "error"], stdin: input)
        #expect(upper.status == 1 && upper.stdout == lower.stdout && upper.stdout.hasPrefix("{"))
        #expect(try BinaryRunner.cdlog(["report", "--format", "JSON"], stdin: input).stdout.hasPrefix("{"))
        #expect(try BinaryRunner.cdlog(["classify", "--input-format", "XCODE"], stdin: input).status == 0)
    }
}

/// Issue 26: colour on a terminal follows no-color.org: NO_COLOR set to anything but the empty string
/// turns it off; an empty NO_COLOR does not. The terminal is a real pseudo-terminal (`script`).
@Suite struct NoColorTests {
    static func onTerminal(_ environment: String) throws -> String {
        let cdlog = BinaryRunner.binary("cdlog").path
        let r = try BinaryRunner.shell("""
            command -v script >/dev/null || { echo SKIP; exit 0; }
            printf 'CoreData: error: -executeRequest: encountered exception = I/O error for database at /x.sqlite. SQLite error code:10, NSSQLiteErrorDomain=10\\n' > "${TMPDIR:-/tmp}/cdlog-nocolor.log"
            env -u NO_COLOR \(environment) TERM=xterm script -qec '\(cdlog) classify "${TMPDIR:-/tmp}/cdlog-nocolor.log"' /dev/null
            """)
        return r.stdout
    }

    @Test func emptyNoColorKeepsColour() throws {
        let plain = try Self.onTerminal("")
        guard !plain.contains("SKIP") else { return }
        #expect(plain.contains("\u{1B}["), "no colour on a terminal: \(plain.debugDescription)")
        #expect(try Self.onTerminal("NO_COLOR=").contains("\u{1B}["))
        #expect(!(try Self.onTerminal("NO_COLOR=1")).contains("\u{1B}["))
    }
}
