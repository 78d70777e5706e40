#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Foundation
import Testing

/// `cdlog report --output` never replaces an input (issue 22, data loss): not a log, not a store file or
/// companion, not through a symlink, a hard link or stdin; and a failed write leaves the old file as it was.
@Suite struct ReportOutputSafetyTests {
    /// A folder with the seed store (WAL pending), a copy of the sample console log and a fingerprint of
    /// every file in it (name, size, SHA-1 through the `sha1sum` of the system).
    struct Scene {
        let folder: String
        let store: String
        let log: String

        init() throws {
            guard let store = try ReportCommandTests.seedStore(1) else { throw Skip() }
            self.store = store
            folder = (store as NSString).deletingLastPathComponent
            log = folder + "/console.log"
            try FileManager.default.copyItem(atPath: BinaryRunner.packageRoot.path + "/" + ReportCommandTests.console, toPath: log)
        }

        /// `ls -la` and every file's hash: what must not change.
        func fingerprint() throws -> String {
            let r = try BinaryRunner.shell("cd '\(folder)' && ls -lA --time-style=full-iso | sed 1d && find . -maxdepth 1 -type f -exec sha1sum {} + | sort")
            return r.stdout
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    struct Skip: Error {}

    func withScene(_ body: (Scene) throws -> Void) throws {
        let scene: Scene
        do { scene = try Scene() } catch is Skip {
            print("skipped: the sqlite3 CLI is not installed (scripts/install-deps.sh installs it)")
            return
        }
        defer { scene.remove() }
        try body(scene)
    }

    @Test func refusesEveryInputStoreFileAndCompanion() throws {
        try withScene { scene in
            #expect(FileManager.default.fileExists(atPath: scene.store + "-wal"))
            let before = try scene.fingerprint()
            let targets = [scene.store, scene.store + "-wal", scene.store + "-shm", scene.store + "-journal", scene.log,
                           scene.folder + "/./console.log", scene.folder + "/../" + (scene.folder as NSString).lastPathComponent + "/console.log"]
            for target in targets {
                let r = try BinaryRunner.cdlog(["report", "--store", scene.store, "--output", target, scene.log])
                #expect(r.status == 2, "\(target): \(r.stderr)")
                #expect(r.stderr.hasPrefix("cdlog: error: refusing to write "), "\(r.stderr)")
                #expect(r.stderr.split(separator: "\n").count == 1)
                #expect(r.stdout.isEmpty)
            }
            // -journal did not exist and still does not.
            #expect(try scene.fingerprint() == before)
        }
    }

    @Test func refusesSymlinkHardLinkAndStandardInput() throws {
        try withScene { scene in
            let link = scene.folder + "/link.md", hard = scene.folder + "/hard.log", walLink = scene.folder + "/wal.md"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "console.log")
            try FileManager.default.linkItem(atPath: scene.log, toPath: hard)
            try FileManager.default.createSymbolicLink(atPath: walLink, withDestinationPath: scene.store + "-wal")
            let before = try scene.fingerprint()
            for (output, extra) in [(link, [scene.log]), (hard, [scene.log]), (walLink, ["--store", scene.store, scene.log])] {
                let r = try BinaryRunner.cdlog(["report", "--output", output] + extra)
                #expect(r.status == 2, "\(output): \(r.stderr)")
                #expect(r.stderr.contains("refusing to write"), "\(r.stderr)")
            }
            // `--output X < X`: the file arrives as stdin.
            let r = try BinaryRunner.shell("'\(BinaryRunner.binary("cdlog").path)' report --output '\(scene.log)' < '\(scene.log)'")
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("it would replace the standard input"), "\(r.stderr)")
            #expect(try scene.fingerprint() == before)
        }
    }

    @Test func writesANewOrExistingOutputWhole() throws {
        try withScene { scene in
            let out = scene.folder + "/report.md"
            try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
            let r = try BinaryRunner.cdlog(["report", "--store", scene.store, "--output", out, scene.log])
            #expect(r.status == 0, "\(r.stderr)")
            let text = try String(contentsOfFile: out, encoding: .utf8)
            #expect(text.hasPrefix("# "), "\(text.prefix(80))")
            #expect(text.contains("## Store"))
            // No temporary file is left beside it.
            let names = try FileManager.default.contentsOfDirectory(atPath: scene.folder)
            #expect(!names.contains { $0.contains(".cdlog-") }, "\(names)")
        }
    }

    @Test func aFailedWriteLeavesTheOldFileAndNoTemporary() throws {
        try withScene { scene in
            let out = scene.folder + "/report.md"
            try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
            // 1 KiB file-size limit: the report is larger, so the write fails part-way (EFBIG, not SIGXFSZ).
            let cdlog = BinaryRunner.binary("cdlog").path
            let r = try BinaryRunner.shell("ulimit -f 2; '\(cdlog)' report --store '\(scene.store)' --output '\(out)' '\(scene.log)'")
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("cannot write"), "\(r.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == "old\n")
            let names = try FileManager.default.contentsOfDirectory(atPath: scene.folder)
            #expect(!names.contains { $0.contains(".cdlog-") }, "\(names)")
        }
    }

    /// A FIFO as the store's `-wal` or `-shm` is a finding, not a hang (it blocked `report --store`
    /// forever); nothing in the folder changes.
    @Test(arguments: ["-wal", "-shm"])
    func fifoCompanionDoesNotBlockTheReport(suffix: String) throws {
        try withScene { scene in
            #expect(unlink(scene.store + suffix) == 0)
            #expect(mkfifo(scene.store + suffix, 0o600) == 0)
            let before = try scene.fingerprint()
            let cdlog = BinaryRunner.binary("cdlog").path
            let r = try BinaryRunner.shell("timeout 60 '\(cdlog)' report --store '\(scene.store)' '\(scene.log)'; echo \"status=$?\"")
            #expect(r.stdout.hasSuffix("status=0\n"), "\(r.stdout.suffix(200)) \(r.stderr)")
            #expect(r.stdout.contains("companion-not-read"))
            #expect(try scene.fingerprint() == before)
        }
    }

    /// SIGINT / SIGTERM while `report --store` works on its private copy of a ~60 MB store: the copy is
    /// removed, as walcheck's is (report left 1.5 GB behind in `$TMPDIR`).
    @Test func interruptedReportLeavesNoStoreCopy() throws {
        guard let store = try ReportCommandTests.seedStore(60) else { return }
        let folder = (store as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scratch = folder + "-tmp"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let cdlog = BinaryRunner.binary("cdlog").path
        let command = "TMPDIR='\(scratch)' '\(cdlog)' report --store '\(store)' /dev/null > /dev/null"
        let start = Date()
        #expect(try BinaryRunner.shell(command).status == 0)
        let full = Date().timeIntervalSince(start)
        var interrupted = 0
        for (index, fraction) in [0.05, 0.2, 0.35, 0.5, 0.65, 0.8].enumerated() {
            let sig = index % 2 == 0 ? "INT" : "TERM"
            let delay = String(format: "%.3f", fraction * full)
            let r = try BinaryRunner.shell("\(command) & pid=$!; sleep \(delay); kill -\(sig) $pid 2>/dev/null; wait $pid; echo \"status=$?\"")
            let status = r.stdout.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            #expect(["0", "130", "143"].contains(status), "SIG\(sig) after \(delay) s: \(r.stdout) \(r.stderr)")
            if status != "0" { interrupted += 1 }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? ["?"]
            #expect(left.isEmpty, "SIG\(sig) after \(delay) s: left \(left)")
            for name in left { try? FileManager.default.removeItem(atPath: scratch + "/" + name) }
        }
        #expect(interrupted > 0, "no run was interrupted within \(full) s")
    }
}
