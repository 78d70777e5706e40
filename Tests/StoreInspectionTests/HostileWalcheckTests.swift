#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore
import Foundation
import Testing
@testable import StoreInspection

/// walcheck's failure behaviour (issue 8), through the built executable: exit codes, one-line messages,
/// a closed or full output, a temporary folder that cannot be used, and signals mid-run — and, whatever
/// happens, not one byte, mtime or name changes in the store's folder.
@Suite(.enabled(if: CLITests.binary != nil, "SKIPPED: walcheck executable not built under <package root>/.build"))
struct HostileWalcheckTests {
    struct Run { let code: Int32; let signal: Int32?; let out: String; let err: String }

    /// Runs walcheck through bash (so redirections and pipes can be tested), with extra environment.
    static func sh(_ script: String, env: [String: String] = [:]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", script]
        p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(code: p.terminationStatus, signal: p.terminationReason == .uncaughtSignal ? p.terminationStatus : nil,
                   out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    static var walcheck: String { "'\(CLITests.binary ?? "walcheck")'" }

    static func expectCleanFailure(_ r: Run, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.code == 2, "\(label): exit \(r.code)", sourceLocation: sourceLocation)
        #expect(r.err.hasPrefix("walcheck: error: "), "\(label): \(r.err)", sourceLocation: sourceLocation)
        #expect(r.err.split(separator: "\n").count == 1, "\(label): \(r.err)", sourceLocation: sourceLocation)
        expectNoTrap(r, label, sourceLocation: sourceLocation)
    }

    static func expectNoTrap(_ r: Run, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for marker in ["Fatal error", "Stack dump", "Backtrace", "Illegal instruction", "Segmentation", "Crash"] {
            #expect(!r.err.contains(marker), "\(label): \(r.err)", sourceLocation: sourceLocation)
        }
    }

    @Test func closedPipeEndsQuietly() throws {
        let tmp = TempDir("epipe")
        let path = frozenStore(tmp)
        let dir = parentDirectory(path)
        agePast(dir)
        let before = FolderState(dir)
        for reader in ["true", "head -c 1 >/dev/null", "(exec 0<&-; sleep 0.2)"] {
            let r = try Self.sh("\(Self.walcheck) '\(path)' --format json | \(reader); echo \"${PIPESTATUS[0]}\"")
            #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("0"), "\(reader): \(r.out)")
            #expect(r.err.isEmpty, "\(reader): \(r.err)")
        }
        #expect(FolderState(dir) == before)
    }

    @Test func fullDiskOutputIsExit2WithAMessage() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let tmp = TempDir("full")
        let path = frozenStore(tmp)
        for format in ["text", "json", "markdown"] {
            let r = try Self.sh("\(Self.walcheck) '\(path)' --format \(format) > /dev/full")
            Self.expectCleanFailure(r, "/dev/full \(format)")
            #expect(r.err.contains("cannot write"), "\(r.err)")
        }
    }

    /// The private copy cannot be made: walcheck still reports what it read from the files (exit 0),
    /// says why SQL is missing, and writes nothing beside the store.
    @Test func temporaryFolderMissingOrNotAFolder() throws {
        let tmp = TempDir("notmp")
        let path = frozenStore(tmp)
        let dir = parentDirectory(path)
        writeBytes(tmp.path + "/plain-file", [1, 2, 3])
        agePast(dir)
        let before = FolderState(dir)
        for bad in [tmp.path + "/does-not-exist", tmp.path + "/plain-file", "/proc/self"] {
            let r = try Self.sh("\(Self.walcheck) '\(path)' --format json", env: ["TMPDIR": bad])
            #expect(r.code == 0, "TMPDIR=\(bad): \(r.err)")
            Self.expectNoTrap(r, "TMPDIR=\(bad)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            let sql = json["sql"] as? [String: Any]
            #expect((sql?["error"] as? String)?.contains("temporary folder") == true, "TMPDIR=\(bad): \(String(describing: sql))")
            #expect((json["wal"] as? [String: Any])?["frames"] as? Int ?? 0 > 0)
            #expect(FolderState(dir) == before, "TMPDIR=\(bad)")
            let measured = try Self.sh("\(Self.walcheck) '\(path)' --measure-checkpoint --no-sql", env: ["TMPDIR": bad])
            #expect(measured.code == 0, "\(measured.err)")
            #expect(FolderState(dir) == before, "TMPDIR=\(bad) --measure-checkpoint")
        }
        // The store's own folder as TMPDIR: the copy goes to /var/tmp instead, never beside the store.
        let own = try Self.sh("\(Self.walcheck) '\(path)' --format json", env: ["TMPDIR": dir])
        #expect(own.code == 0)
        #expect(FolderState(dir) == before, "TMPDIR = the store's folder")
    }

    /// SIGINT / SIGTERM at various moments of a run that copies a ~24 MB store: the store's folder is
    /// unchanged and the private copy is gone.
    @Test func interruptedMidRunLeavesNothingBehind() throws {
        let tmp = TempDir("signal")
        let live = tmp.sub("live"), dir = tmp.sub("s"), scratch = tmp.sub("tmp")
        let db = makeLiveStore(live + "/big.sqlite")
        db.exec("BEGIN")
        commitRows(db, 6000, size: 4000)
        db.exec("COMMIT")
        freeze("big.sqlite", from: live, to: dir)
        db.close()
        agePast(dir)
        let before = FolderState(dir)
        // How long an uninterrupted run takes here; the signals land at fractions of that.
        let start = Date()
        #expect(try Self.sh("\(Self.walcheck) '\(dir)/big.sqlite' --measure-checkpoint --format json > /dev/null", env: ["TMPDIR": scratch]).code == 0)
        let full = Date().timeIntervalSince(start)
        var interrupted = 0
        let moments = [0.02, 0.1, 0.25, 0.4, 0.55, 0.7, 0.85].map { String(format: "%.3f", $0 * full) }
        for (index, delay) in moments.enumerated() {
            let sig = index % 2 == 0 ? "INT" : "TERM"
            let script = """
            \(Self.walcheck) '\(dir)/big.sqlite' --measure-checkpoint --format json > /dev/null & pid=$!
            sleep \(delay); kill -\(sig) $pid 2>/dev/null; wait $pid; echo "status=$?"
            """
            let r = try Self.sh(script, env: ["TMPDIR": scratch])
            Self.expectNoTrap(r, "SIG\(sig) after \(delay) s")
            let status = r.out.split(separator: "=").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
            // 0: finished before the signal; 128+2 / 128+15: killed by it.
            #expect(["0", "130", "143"].contains(status ?? ""), "SIG\(sig) after \(delay) s: \(r.out) \(r.err)")
            if status != "0" { interrupted += 1 }
            #expect(FolderState(dir) == before, "SIG\(sig) after \(delay) s: the store's folder changed")
            let left = (try? directoryEntries(scratch)) ?? ["?"]
            #expect(left.isEmpty, "SIG\(sig) after \(delay) s: left \(left) \(left.first.map { (try? directoryEntries(scratch + "/" + $0)) ?? [] } ?? [])")
            for name in left { try? FileManager.default.removeItem(atPath: scratch + "/" + name) }
        }
        #expect(interrupted > 0, "no run was interrupted in \(moments) of \(full) s: the store is too small for this machine")
    }

    /// Damaged companions are findings (exit 0), a damaged main file is one line (exit 2); never a trap.
    @Test func hostileStoresThroughTheExecutable() throws {
        let tmp = TempDir("hostile")
        let path = frozenStore(tmp)
        let dir = parentDirectory(path)
        let good = readBytes(path), wal = readBytes(path + "-wal"), shm = readBytes(path + "-shm")
        let companions: [(String, [UInt8], [UInt8]?)] = [
            ("zero-length WAL", [], shm), ("WAL header only", Array(wal.prefix(32)), shm),
            ("WAL cut mid-frame", Array(wal.prefix(32 + 4120 + 100)), shm), ("garbage -shm", wal, [UInt8](repeating: 0xA5, count: 5000)),
            ("empty -shm", wal, []), ("no -shm", wal, nil), ("WAL of zeros", [UInt8](repeating: 0, count: 9000), shm),
        ]
        for (label, w, s) in companions {
            let d = tmp.sub(label.replacingOccurrences(of: " ", with: "-"))
            writeBytes(d + "/r.sqlite", good)
            writeBytes(d + "/r.sqlite-wal", w)
            if let s { writeBytes(d + "/r.sqlite-shm", s) }
            agePast(d)
            let before = FolderState(d)
            for format in ["text", "json", "markdown"] {
                let r = try Self.sh("\(Self.walcheck) '\(d)/r.sqlite' --format \(format)")
                #expect(r.code == 0, "\(label) \(format): \(r.err)")
                Self.expectNoTrap(r, label)
            }
            #expect(FolderState(d) == before, "\(label)")
        }
        let mains: [(String, [UInt8])] = [
            ("empty database", []), ("truncated header", Array(good.prefix(50))),
            ("bad page size", { var b = good; b[16] = 0x03; b[17] = 0x00; return b }()),
            ("text file", Array("CoreData: error: not a database\n".utf8)),
        ]
        for (label, bytes) in mains {
            let d = tmp.sub(label.replacingOccurrences(of: " ", with: "-"))
            writeBytes(d + "/r.sqlite", bytes)
            Self.expectCleanFailure(try Self.sh("\(Self.walcheck) '\(d)/r.sqlite'"), label)
        }
        // A WAL with no database beside it.
        let orphan = tmp.sub("orphan")
        writeBytes(orphan + "/r.sqlite-wal", wal)
        Self.expectCleanFailure(try Self.sh("\(Self.walcheck) '\(orphan)/r.sqlite'"), "WAL without database")
        Self.expectCleanFailure(try Self.sh("\(Self.walcheck) '\(orphan)'"), "folder with only a WAL")
        _ = dir
    }
}
