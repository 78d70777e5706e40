import Foundation
import Testing
import CSQLite
@testable import StoreInspection
import CDLogCore

/// A small frozen WAL store for rendering and CLI tests.
func frozenStore(_ tmp: TempDir, commits: Int = 5) -> String {
    let live = tmp.sub("live"), dir = tmp.sub("s")
    let db = makeLiveStore(live + "/r.sqlite")
    commitRows(db, commits)
    freeze("r.sqlite", from: live, to: dir)
    return dir + "/r.sqlite"
}

@Suite struct RenderTests {
    @Test func jsonHasTheDomainContractKeys() throws {
        let tmp = TempDir("json")
        let path = frozenStore(tmp)
        let r = try inspectUnchanged(path)
        let text = ReportRenderer.render([r], format: .json)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let database = try #require(obj["database"] as? [String: Any])
        for k in ["path", "bytes", "pageSize", "journalMode"] { #expect(database[k] != nil, "database.\(k)") }
        #expect(database["journalMode"] as? String == "wal")
        let wal = try #require(obj["wal"] as? [String: Any])
        for k in ["present", "bytes", "frames", "commits", "checkpointSequence", "framesInFile"] { #expect(wal[k] != nil, "wal.\(k)") }
        #expect(wal["frames"] as? Int == r.wal.scan?.mxFrame)
        let ix = try #require(obj["walIndex"] as? [String: Any])
        for k in ["present", "state", "mxFrame", "nBackfill"] { #expect(ix[k] != nil, "walIndex.\(k)") }
        #expect(ix["state"] as? String == "current")
        let cp = try #require(obj["checkpoint"] as? [String: Any])
        #expect(cp["pendingFrames"] as? Int == r.checkpoint.pendingFrames)
        #expect(cp["pendingBytes"] as? Int == Int(r.checkpoint.pendingBytes))
        #expect(obj.keys.contains("coreData"))
        #expect(obj["coreData"] is NSNull)
        let findings = try #require(obj["findings"] as? [[String: Any]])
        for f in findings { for k in ["id", "severity", "title", "detail", "advice"] { #expect(f[k] is String) } }
        // Two stores: {"stores":[…]}.
        let two = ReportRenderer.render([r, r], format: .json)
        let wrapped = try #require(try JSONSerialization.jsonObject(with: Data(two.utf8)) as? [String: Any])
        #expect((wrapped["stores"] as? [Any])?.count == 2)
    }

    @Test func coreDataJSONEntitiesAndMarkdownTables() throws {
        let tmp = TempDir("cdjson")
        let live = tmp.sub("live"), dir = tmp.sub("s")
        _ = try makeCoreDataStore(live, transactions: 50)
        freeze("Model.sqlite", from: live, to: dir)
        let r = try inspectUnchanged(dir + "/Model.sqlite")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(ReportRenderer.json(r).utf8)) as? [String: Any])
        let cd = try #require(obj["coreData"] as? [String: Any])
        #expect(cd["storeUUID"] as? String == "B3D6A6C2-1111-2222-3333-444455556666")
        #expect(cd["frameworkVersion"] as? Int == 1345)
        let entities = try #require(cd["entities"] as? [[String: Any]])
        #expect(entities.contains { $0["name"] as? String == "Item" && $0["rows"] as? Int == 3 })
        #expect((cd["cloudKit"] as? [String: Any])?["pendingExports"] as? Int == 125)
        let md = ReportRenderer.render([r], format: .markdown)
        #expect(md.contains("| Severity | Id | Finding | Advice |"))
        #expect(md.contains("### Core Data"))
        let text = ReportRenderer.render([r], format: .text)
        #expect(text.contains("wal-index"))
        #expect(text.contains("Findings ("))
    }

    @Test func findingThresholdsOnSyntheticFigures() throws {
        let tmp = TempDir("thresholds")
        var r = try inspectUnchanged(frozenStore(tmp))
        // Pretend this WAL is huge: the rules are pure functions of the figures.
        r.wal.bytes = 3 << 30
        r.checkpoint.pendingFrames = 700_000
        r.checkpoint.pendingPages = 200_000
        r.checkpoint.recoveryBytes = Int64(700_000) * 4120
        r.checkpoint.checkpointWriteBytes = Int64(200_000) * 4096
        r.checkpoint.pendingBytes = r.checkpoint.recoveryBytes
        let f = FindingRules.evaluate(r)
        #expect(f.first { $0.id == "checkpoint-launch-risk" }?.severity == .error)
        #expect(f.first { $0.id == "wal-file-large" }?.severity == .error)
        #expect(f.first { $0.id == "pending-frames" }?.severity == .warning)
        #expect(f.first { $0.id == "wal-larger-than-database" }?.severity == .warning)
        #expect(f.first?.severity == .error) // sorted most severe first
        let launch = try #require(f.first { $0.id == "checkpoint-launch-risk" })
        #expect(launch.detail.contains("20 s launch watchdog"))
        #expect(launch.advice.contains("off the main thread"))
        r.checkpoint.recoveryBytes = 70 << 20
        r.checkpoint.checkpointWriteBytes = 0
        #expect(FindingRules.evaluate(r).first { $0.id == "checkpoint-launch-risk" }?.severity == .warning)
    }
}

/// The walcheck executable: exit codes and one-line errors (skipped when it has not been built).
@Suite struct CLITests {
    static let binary: String? = {
        for p in [".build/debug/walcheck", ".build/x86_64-unknown-linux-gnu/debug/walcheck",
                  ".build/arm64-apple-macosx/debug/walcheck", ".build/aarch64-unknown-linux-gnu/debug/walcheck"] {
            let full = packageRoot + "/" + p
            if FileManager.default.isExecutableFile(atPath: full) { return full }
        }
        return nil
    }()

    func run(_ args: [String]) throws -> (code: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(CLITests.binary))
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test(.enabled(if: CLITests.binary != nil, "SKIPPED: walcheck executable not built under <package root>/.build"))
    func exitCodesAndOneLineErrors() throws {
        let tmp = TempDir("cli")
        let path = frozenStore(tmp)
        let dir = parentDirectory(path)
        agePast(dir)
        let before = FolderState(dir)
        let ok = try run([path, "--format", "json"])
        #expect(ok.code == 0)
        #expect(ok.out.hasPrefix("{\"database\":"))
        #expect(try run([path, "--fail-on", "info"]).code == 1)     // the launch-risk info finding
        #expect(try run([path, "--fail-on", "error"]).code == 0)
        #expect(try run([dir, "--format", "markdown"]).out.contains("## walcheck"))
        #expect(FolderState(dir) == before)
        for (args, text) in [([path, "--format", "yaml"], "--format"), ([path, "--fail-on", "loud"], "--fail-on"),
                             ([tmp.path + "/nope.sqlite"], "no such file"), (["/dev/null"], "not a regular file")] {
            let bad = try run(args)
            #expect(bad.code == 2, "\(args)")
            #expect(bad.err.hasPrefix("walcheck: error:") && bad.err.contains(text), "\(bad.err)")
            #expect(bad.err.split(separator: "\n").count == 1, "\(bad.err)")
            #expect(bad.out.isEmpty)
        }
    }
}

/// Issue 23's "also": one byte formatter for walcheck and report, `walcheck --version`, and a hint for a
/// folder whose stores are one level down.
@Suite struct WalcheckWordingTests {
    @Test func oneByteFormatter() {
        #expect(mb(512) == "512 bytes")
        #expect(mb(1536) == "1.5 KiB")
        #expect(mb(50_000_000) == "47.7 MiB")
        #expect(mb(4 << 30) == "4.00 GiB", "walcheck printed 4096 MiB where report printed 4.00 GiB")
        #expect(mb(Int64(1) << 40) == "1024.00 GiB")
    }

    @Test func storesInSubFoldersAreNamed() throws {
        let tmp = TempDir("subfolders")
        let inner = tmp.sub("Library/Application Support")
        let db = makeLiveStore(inner + "/Model.sqlite")
        commitRows(db, 1)
        #expect(throws: ToolFailure("\(tmp.path)/Library: no SQLite store directly in this folder, but sub-folders hold some (\(inner)/Model.sqlite): give one of them or its folder")) {
            try StoreLocator.locate(tmp.path + "/Library")
        }
    }
}
