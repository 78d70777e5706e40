import CDLogCore

/// Renders `StoreReport`s. Pure functions of the report: deterministic, no I/O.
///
/// JSON: one object per store with the docs/domain.md, "Output contracts" keys (`database`, `wal`, `walIndex`, `checkpoint`,
/// `coreData`, `findings`) plus more; several stores (a folder) are wrapped as `{"stores":[…]}`.
public enum ReportRenderer {
    public static func render(_ reports: [StoreReport], format: StoreReportFormat) -> String {
        switch format {
        case .json:
            if reports.count == 1 { return json(reports[0]) + "\n" }
            return "{\"stores\":[" + reports.map(json).joined(separator: ",") + "]}\n"
        // Human-readable formats show control characters from the store or its path (`visibleControlCharacters`
        // per value, newlines included, so that no value forges a line).
        case .text: return reports.map(text).joined(separator: "\n")
        case .markdown: return reports.map(markdown).joined(separator: "\n")
        }
    }

    static func hex32(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - h.count)) + h
    }

    // MARK: JSON

    public static func json(_ r: StoreReport) -> String {
        var w = JSONWriter()
        let db = r.database, h = db.header
        w.beginObject()
        w.key("database"); w.beginObject()
        w.field("path", db.path)
        w.field("resolvedPath", db.resolvedPath)
        w.field("bytes", Int(db.bytes))
        w.field("pageSize", h.pageSize)
        w.field("pageCount", db.pageCount)
        w.field("pagesInFile", db.pagesInFile)
        w.field("journalMode", h.journalMode)
        w.field("writeVersion", Int(h.writeVersion))
        w.field("readVersion", Int(h.readVersion))
        w.field("sqliteVersion", h.sqliteVersion)
        w.field("sqliteVersionNumber", Int(h.sqliteVersionNumber))
        w.field("freelistPages", Int(h.freelistPages))
        w.field("autoVacuum", h.autoVacuum)
        w.field("fileChangeCounter", Int(h.fileChangeCounter))
        w.field("schemaCookie", Int(h.schemaCookie))
        w.field("textEncoding", h.textEncodingName)
        w.field("userVersion", Int(h.userVersion))
        w.field("applicationId", Int(h.applicationID))
        w.endObject()

        let wal = r.wal, scan = wal.scan
        w.key("wal"); w.beginObject()
        w.field("present", wal.present)
        w.field("path", wal.path)
        w.field("bytes", Int(wal.bytes))
        w.field("headerValid", wal.header?.valid ?? false)
        w.field("problem", wal.problem)
        w.field("magic", wal.header.map { hex32($0.magic) })
        w.field("checksumByteOrder", wal.header.map { $0.bigEndianChecksums ? "big" : "little" })
        w.field("formatVersion", wal.header.map { Int($0.formatVersion) })
        w.field("pageSize", wal.header.map { $0.pageSize })
        w.field("checkpointSequence", wal.header.map { Int($0.checkpointSequence) })
        w.field("salt1", wal.header.map { hex32($0.salt1) })
        w.field("salt2", wal.header.map { hex32($0.salt2) })
        w.field("headerChecksumValid", wal.header?.checksumValid)
        w.field("framesInFile", scan?.framesInFile ?? 0)
        w.field("validFrames", scan?.validFrames ?? 0)
        w.field("frames", scan?.mxFrame ?? 0)
        w.field("commits", scan?.commits ?? 0)
        w.field("distinctPages", scan?.distinctPages ?? 0)
        w.field("databasePagesAfterCommit", scan.flatMap { $0.mxFrame > 0 ? $0.databasePages : nil })
        w.field("databaseBytesAfterCommit", scan.flatMap { s in s.mxFrame > 0 ? s.databasePages * (wal.header?.pageSize ?? 0) : nil })
        w.field("uncommittedFrames", scan.map { $0.validFrames - $0.mxFrame } ?? 0)
        w.field("firstInvalidFrame", scan?.firstInvalidFrame)
        w.field("firstInvalidReason", scan?.firstInvalidReason)
        w.field("staleFrames", scan?.staleFrames ?? 0)
        w.field("staleGenerations", scan?.staleGenerations ?? 0)
        w.field("ignoredFrames", scan?.ignoredCurrentFrames ?? 0)
        w.field("ignoredCommits", scan?.ignoredCommits ?? 0)
        w.field("partialFrameBytes", scan?.partialFrameBytes ?? 0)
        w.field("zeroTailFrame", scan?.zeroTailFrame)
        w.field("zeroTailBytes", Int(scan?.zeroTailBytes ?? 0))
        w.field("tornTail", scan.map { $0.partialFrameBytes > 0 || $0.validFrames > $0.mxFrame || ($0.ignoredCurrentFrames > 0 && $0.ignoredCommits == 0) } ?? false)
        w.field("liveBytes", Int(wal.liveBytes))
        w.field("pageSizeMatchesDatabase", wal.pageSizeMatchesDatabase)
        w.field("pageOneValid", wal.pageOneValid)
        w.key("checksums"); w.beginObject()
        w.field("coverage", scan?.checksumCoverage ?? "none")
        w.field("verifiedFromFrame", scan?.checksumsVerifiedFrom)
        w.endObject()
        w.endObject()

        w.key("companions"); w.beginArray()
        for note in r.companions {
            w.beginObject()
            w.field("path", note.path)
            w.field("suffix", note.suffix)
            w.field("what", note.what)
            w.field("read", note.read)
            w.endObject()
        }
        w.endArray()

        let ix = r.walIndex.index
        w.key("walIndex"); w.beginObject()
        w.field("present", ix.present)
        w.field("path", ix.present ? ix.path : nil)
        w.field("bytes", ix.present ? Int(ix.bytes) : nil)
        w.field("state", r.walIndex.state)
        w.field("reason", r.walIndex.reason)
        w.field("inUse", r.walIndex.inUse)
        w.field("headerValid", ix.headerValid)
        w.field("problem", ix.problem)
        w.field("byteOrder", ix.byteOrder)
        let parsed = ix.present && ix.bytes >= Int64(WALIndex.headerBytes)
        w.field("mxFrame", parsed ? Int(ix.mxFrame) : nil)
        w.field("nBackfill", parsed ? Int(ix.nBackfill) : nil)
        w.field("nBackfillAttempted", parsed ? Int(ix.nBackfillAttempted) : nil)
        w.key("readMarks")
        if parsed {
            w.beginArray()
            for m in ix.readMarks { if m == 0xFFFF_FFFF { w.null() } else { w.int(Int(m)) } }
            w.endArray()
        } else { w.null() }
        w.field("iChange", parsed ? Int(ix.iChange) : nil)
        w.field("nPage", parsed ? Int(ix.nPage) : nil)
        w.field("pageSize", parsed ? ix.pageSize : nil)
        w.field("salt1", parsed ? hex32(ix.salt1) : nil)
        w.field("salt2", parsed ? hex32(ix.salt2) : nil)
        w.field("checkpointInterrupted", r.walIndex.checkpointInterrupted)
        w.endObject()

        let c = r.checkpoint
        w.key("checkpoint"); w.beginObject()
        w.field("pendingFrames", c.pendingFrames)
        w.field("pendingBytes", Int(c.pendingBytes))
        w.field("pendingPages", c.pendingPages)
        w.field("checkpointWriteBytes", Int(c.checkpointWriteBytes))
        w.field("recoveryBytes", Int(c.recoveryBytes))
        w.field("walToDatabaseRatio", c.walToDatabaseRatio.map { ($0 * 1000).rounded() / 1000 })
        w.field("progress", c.progress)
        w.field("fromWalIndex", c.fromWalIndex)
        w.key("measured")
        if let m = r.measurement {
            w.beginObject()
            w.field("recoverySeconds", m.recoverySeconds)
            w.field("recoveryMBps", m.recoveryMBps)
            w.field("checkpointSeconds", m.checkpointSeconds)
            w.field("checkpointMBps", m.checkpointMBps)
            w.field("sqliteLogFrames", m.logFrames)
            w.field("sqliteCheckpointedFrames", m.checkpointedFrames)
            w.field("note", CheckpointMeasurement.note)
            w.endObject()
        } else if let e = r.measurementError {
            w.beginObject(); w.field("error", e); w.endObject()
        } else { w.null() }
        w.endObject()

        w.key("journal"); w.beginObject()
        w.field("present", r.journal.present)
        w.field("bytes", Int(r.journal.bytes))
        w.field("hot", r.journal.hot)
        w.endObject()

        w.key("sql")
        if let s = r.sql {
            w.beginObject()
            w.field("pageCount", s.pageCount)
            w.field("freelistCount", s.freelistCount)
            w.field("tables", s.tables)
            w.field("error", s.error)
            w.field("includesWal", s.error == nil)
            w.field("copyBytes", Int(s.copyBytes))
            w.endObject()
        } else { w.null() }

        w.key("coreData")
        if let cd = r.sql?.coreData { coreDataJSON(cd, &w) } else { w.null() }

        w.key("findings"); w.beginArray()
        for f in r.findings {
            w.beginObject()
            w.field("id", f.id); w.field("severity", f.severity.name); w.field("title", f.title)
            w.field("detail", f.detail); w.field("advice", f.advice)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text
    }

    static func coreDataJSON(_ cd: CoreDataInfo, _ w: inout JSONWriter) {
        w.beginObject()
        w.field("storeUUID", cd.storeUUID)
        w.field("storeType", cd.storeType)
        w.field("frameworkVersion", cd.frameworkVersion)
        w.field("maximumFrameworkVersion", cd.maximumFrameworkVersion)
        w.field("metadataReadable", cd.metadataReadable)
        w.field("modelVersionHashesVersion", cd.modelVersionHashesVersion)
        w.key("modelVersionIdentifiers"); w.beginArray(); cd.modelVersionIdentifiers.forEach { w.string($0) }; w.endArray()
        w.key("modelVersionHashes"); w.beginObject(); cd.modelVersionHashes.forEach { w.field($0.entity, $0.hash) }; w.endObject()
        w.field("modelVersionChecksum", cd.modelVersionChecksum)
        w.field("autoVacuumLevel", cd.autoVacuumLevel)
        w.key("entities"); w.beginArray()
        for e in cd.entities {
            w.beginObject()
            w.field("name", e.name); w.field("rows", e.rows); w.field("entity", e.entityNumber)
            w.field("superEntity", e.superEntity); w.field("maxPK", e.maxPrimaryKey); w.field("table", e.table)
            w.field("kind", e.kind)
            w.endObject()
        }
        w.endArray()
        w.key("history")
        if let h = cd.history {
            w.beginObject()
            w.field("transactions", h.transactions); w.field("changes", h.changes); w.field("strings", h.strings)
            w.field("oldest", isoDate(cocoaSeconds: h.oldest)); w.field("newest", isoDate(cocoaSeconds: h.newest))
            w.endObject()
        } else { w.null() }
        w.key("cloudKit")
        if let ck = cd.cloudKit {
            w.beginObject()
            w.key("tables"); w.beginArray()
            for t in ck.tables { w.beginObject(); w.field("name", t.name); w.field("rows", t.rows); w.endObject() }
            w.endArray()
            w.field("recordMetadata", ck.recordMetadata); w.field("needsUpload", ck.needsUpload)
            w.field("needsCloudDelete", ck.needsCloudDelete); w.field("needsLocalDelete", ck.needsLocalDelete)
            w.field("pendingExports", ck.pendingExports); w.field("events", ck.events); w.field("failedEvents", ck.failedEvents)
            w.key("lastEvents"); w.beginArray()
            for e in ck.lastEvents {
                w.beginObject()
                w.field("type", e.type); w.field("succeeded", e.succeeded); w.field("errorDomain", e.errorDomain)
                w.field("errorCode", e.errorCode); w.field("startedAt", isoDate(cocoaSeconds: e.startedAt))
                w.field("endedAt", isoDate(cocoaSeconds: e.endedAt))
                w.endObject()
            }
            w.endArray()
            w.endObject()
        } else { w.null() }
        w.endObject()
    }

    // MARK: shared rows for text and Markdown

    typealias Section = (title: String, rows: [(String, String)])

    static func sections(_ r: StoreReport) -> [Section] {
        let db = r.database, h = db.header
        var out: [Section] = []
        out.append(("Database", [
            ("path", db.path + (db.resolvedPath.map { " → \($0)" } ?? "")),
            ("size", "\(mb(db.bytes)) (\(db.bytes) bytes), \(db.pageCount) pages of \(h.pageSize) bytes"),
            ("journal mode", "\(h.journalMode) (header bytes 18/19 = \(h.writeVersion)/\(h.readVersion))"),
            ("last writer", h.sqliteVersion.map { "SQLite \($0)" } ?? "unknown (\(h.sqliteVersionNumber))"),
            ("freelist", "\(h.freelistPages) pages"),
            ("auto-vacuum", h.autoVacuum),
        ]))
        let wal = r.wal
        if !wal.present {
            let note = r.companions.first { $0.suffix == "-wal" && !$0.read }
            out.append(("WAL", [("present", note.map { "not read: \($0.path) is \($0.what)" } ?? "no")]))
        } else if let hd = wal.header, hd.valid, let s = wal.scan {
            var rows: [(String, String)] = [
                ("file", "\(wal.path ?? "") — \(mb(wal.bytes)) (\(wal.bytes) bytes)"),
                ("header", "magic \(hex32(hd.magic)) (\(hd.bigEndianChecksums ? "big" : "little")-endian checksums), page \(hd.pageSize), checkpoint sequence \(hd.checkpointSequence), salts \(hex32(hd.salt1))/\(hex32(hd.salt2)), checksum ok"),
                ("frames", "\(s.framesInFile) in file, \(s.validFrames) valid, \(s.mxFrame) committed (mxFrame) in \(s.commits) commits, \(s.distinctPages) distinct pages"),
                ("database after last commit", s.mxFrame > 0 ? "\(s.databasePages) pages (\(mb(Int64(s.databasePages) * Int64(hd.pageSize))))" : "—"),
                ("live bytes", "\(mb(wal.liveBytes)) of \(mb(wal.bytes))"),
                ("checksums", s.checksumCoverage == "full" ? "verified for every frame" : s.checksumCoverage == "after-wal-index" ? "frames 1…\((s.checksumsVerifiedFrom ?? 1) - 1) trusted via the wal-index anchor" + ((s.checksumsVerifiedFrom ?? 0) <= s.framesInFile ? ", verified from frame \(s.checksumsVerifiedFrom ?? 0)" : "") + " (--verify-checksums checks all)" : "not verified"),
            ]
            if let bad = s.firstInvalidFrame {
                rows.append(("first invalid frame", "\(bad) (\(s.firstInvalidReason ?? "?")); after it \(s.staleFrames) stale frames from \(s.staleGenerations) earlier generation(s), \(s.ignoredCurrentFrames) ignored current-generation frames (\(s.ignoredCommits) commits)"))
            }
            if s.partialFrameBytes > 0 { rows.append(("partial frame", "\(s.partialFrameBytes) bytes at the end")) }
            if let zero = s.zeroTailFrame {
                rows.append(("zero-filled tail", "from frame \(zero): \(mb(s.zeroTailBytes)) never written (a sparse hole or preallocated space); not scanned"))
            }
            out.append(("WAL", rows))
        } else {
            out.append(("WAL", [("file", "\(wal.path ?? "") — \(wal.bytes) bytes"), ("header", wal.problem ?? "empty (0 bytes)")]))
        }
        let ix = r.walIndex.index
        var ixRows: [(String, String)] = [("state", "\(r.walIndex.state) — \(r.walIndex.reason)")]
        if ix.present {
            ixRows.append(("in use", r.walIndex.inUse ? "yes: another process has it open, so SQLite trusts it as it is"
                                                      : "no: the next connection rebuilds it from the WAL (frames verified here as SQLite's recovery does)"))
        }
        if ix.present {
            ixRows.append(("file", "\(ix.path) — \(ix.bytes) bytes"))
            if ix.bytes >= Int64(WALIndex.headerBytes) {
                let marks = ix.readMarks.map { $0 == 0xFFFF_FFFF ? "-" : String($0) }.joined(separator: " ")
                ixRows.append(("mxFrame / nBackfill", "\(ix.mxFrame) / \(ix.nBackfill) (attempted \(ix.nBackfillAttempted))"))
                ixRows.append(("read marks", marks))
            }
        }
        out.append(("wal-index", ixRows))
        let c = r.checkpoint
        var cRows: [(String, String)] = [
            ("progress", c.progress + (c.fromWalIndex ? "" : c.progress == "unknown" ? " (wal-index not current: pending is an upper bound)" : "")),
            ("pending", "\(c.pendingFrames) frames (\(mb(c.pendingBytes))), \(c.pendingPages) distinct pages (\(mb(c.checkpointWriteBytes)) to write)"),
            ("next open reads", mb(c.recoveryBytes) + " of WAL (recovery)"),
        ]
        if let ratio = c.walToDatabaseRatio { cRows.append(("WAL / database", format2("%.2f×", ratio))) }
        if let m = r.measurement {
            cRows.append(("measured recovery", format2("%.3f s", m.recoverySeconds) + (m.recoveryMBps.map { format2(", %.0f MiB/s", $0) } ?? "")))
            cRows.append(("measured checkpoint", format2("%.3f s", m.checkpointSeconds) + (m.checkpointMBps.map { format2(", %.0f MiB/s", $0) } ?? "") + " (SQLite: log \(m.logFrames), checkpointed \(m.checkpointedFrames))"))
            cRows.append(("note", CheckpointMeasurement.note))
        } else if let e = r.measurementError {
            cRows.append(("measurement", "failed: \(e)"))
        }
        out.append(("Checkpoint", cRows))
        if r.journal.present {
            out.append(("Rollback journal", [("file", "\(r.journal.bytes) bytes\(r.journal.hot ? ", hot" : "")")]))
        }
        if let s = r.sql, let e = s.error { out.append(("SQL", [("error", e)])) }
        if let s = r.sql, s.copyBytes >= 64 << 20 {
            out.append(("Temporary space", [("private copy", "\(mb(s.copyBytes)) in $TMPDIR for SQL (deleted before exit; --no-sql skips it)")]))
        }
        if let cd = r.sql?.coreData {
            var rows: [(String, String)] = [
                ("store UUID", cd.storeUUID ?? "—"),
                ("framework version", cd.frameworkVersion.map(String.init) ?? "—"),
                ("model identifiers", cd.modelVersionIdentifiers.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: ", ")),
                ("model hashes", cd.modelVersionHashes.map { "\($0.entity) \($0.hash.prefix(12))…" }.joined(separator: ", ")),
            ]
            for e in cd.entities {
                rows.append(("entity \(e.name)", "\(e.rows.map { counted($0, "row", "rows") } ?? "table missing") (Z_ENT \(e.entityNumber), \(e.kind))"))
            }
            if let hi = cd.history {
                rows.append(("history", "\(hi.transactions) transactions, \(hi.changes ?? 0) changes, \(isoDate(cocoaSeconds: hi.oldest) ?? "—") … \(isoDate(cocoaSeconds: hi.newest) ?? "—")"))
            }
            if let ck = cd.cloudKit {
                rows.append(("CloudKit tables", ck.tables.map { "\($0.name) \($0.rows)" }.joined(separator: ", ")))
                rows.append(("CloudKit records", "\(ck.recordMetadata ?? 0) mirrored, \(ck.pendingExports ?? 0) pending export"))
                for e in ck.lastEvents.prefix(5) {
                    rows.append(("event", "\(isoDate(cocoaSeconds: e.startedAt) ?? "—") \(e.type) \(e.succeeded == false ? "FAILED \(e.errorDomain ?? "") \(e.errorCode.map(String.init) ?? "")" : "ok")"))
                }
            }
            out.append(("Core Data", rows))
        } else if r.sql != nil && r.sql?.error == nil {
            out.append(("Core Data", [("store", "not a Core Data store (no Z_METADATA / Z_PRIMARYKEY)")]))
        }
        return out
    }

    // MARK: text

    public static func text(_ r: StoreReport) -> String {
        func shown(_ value: String) -> String { visibleControlCharacters(value, newlines: true) }
        var s = "walcheck \(shown(r.database.path))\n"
        for section in sections(r) {
            s += "\n\(section.title)\n"
            let width = section.rows.map(\.0.count).max() ?? 0
            for (k, v) in section.rows {
                s += "  " + shown(k) + String(repeating: " ", count: width - k.count) + "  " + shown(v) + "\n"
            }
        }
        s += "\nFindings (\(r.findings.count))\n"
        if r.findings.isEmpty { s += "  none\n" }
        for f in r.findings {
            s += "  [\(f.severity.name)] \(f.id): \(shown(f.title))\n      \(shown(f.detail))\n      → \(shown(f.advice))\n"
        }
        return s
    }

    // MARK: Markdown

    static func cell(_ v: String) -> String {
        var out = ""
        for ch in v { out += ch == "|" ? "\\|" : ch == "\n" ? " " : String(ch) }
        return visibleControlCharacters(out, newlines: true)
    }

    public static func markdown(_ r: StoreReport) -> String {
        var s = "## walcheck: `\(visibleControlCharacters(r.database.path, newlines: true))`\n"
        for section in sections(r) {
            s += "\n### \(section.title)\n\n| Field | Value |\n|---|---|\n"
            for (k, v) in section.rows { s += "| \(cell(k)) | \(cell(v)) |\n" }
        }
        s += "\n### Findings\n\n"
        if r.findings.isEmpty { s += "None.\n" } else {
            s += "| Severity | Id | Finding | Advice |\n|---|---|---|---|\n"
            for f in r.findings {
                s += "| \(f.severity.name) | `\(f.id)` | **\(cell(f.title))** — \(cell(f.detail)) | \(cell(f.advice)) |\n"
            }
        }
        return s
    }
}
