// Fuzz target: walcheck's readers — DatabaseHeader, WALHeader + the streaming frame scan (salts,
// checksum chain, wal-index anchor), WALIndex (-shm), PropertyListReader (bplist), and the whole
// inspection (StoreInspector without SQL: findings and the three renderers).
//
// Input layout:
//   byte 0     flags: bits 0-1 checksum policy (auto, full, none, auto); bit 2 no -shm file;
//              bit 3 the database header comes from the input (else a valid WAL-mode header)
//   bytes 1-2  length N of the -shm part (little-endian, capped at what is there)
//   N bytes    the -shm
//   rest       the -wal (with bit 3: its first 100 bytes are also the database header)
// The raw input is also given to DatabaseHeader.parse, WALHeader.parse, WALIndex.parse and
// PropertyListReader.parse directly.
// Invariants besides "never traps": mxFrame ≤ validFrames ≤ framesInFile, 0 ≤ pendingFrames ≤ mxFrame
// (or the valid frames).
import FuzzSupport
import StoreInspection
#if canImport(Glibc)
import Glibc
let systemWrite = Glibc.write
#else
import Darwin
let systemWrite = Darwin.write
#endif

let directory: String = {
    // scripts/fuzz.sh passes a folder it removes afterwards; else /dev/shm (memory) or /tmp.
    let base = getenv("CDLOG_FUZZ_TMPDIR").map { String(cString: $0) } ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")
    var template = Array("\(base)/cdlog-fuzzstore.XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { fatalError("mkdtemp") }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return path
}()

func write(_ path: String, _ bytes: ArraySlice<UInt8>) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fatalError("open \(path)") }
    bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
            let n = systemWrite(fd, raw.baseAddress! + done, raw.count - done)
            if n <= 0 { fatalError("write \(path)") }
            done += n
        }
    }
    close(fd)
}

/// A valid WAL-mode database header for page size `pageSize`, padded to one page.
func databaseFile(pageSize: Int) -> [UInt8] {
    var page = [UInt8](repeating: 0, count: max(512, pageSize))
    let magic = Array("SQLite format 3\0".utf8)
    page.replaceSubrange(0..<16, with: magic)
    let stored = pageSize == 65536 ? 1 : pageSize
    page[16] = UInt8(stored >> 8 & 0xFF); page[17] = UInt8(stored & 0xFF)
    page[18] = 2; page[19] = 2; page[21] = 64; page[22] = 32; page[23] = 32
    page[31] = 1                          // in-header page count 1
    page[47] = 4; page[59] = 1            // schema format 4, UTF-8
    return page
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput.bytes(data, size)
    _ = try? DatabaseHeader.parse(Array(input.prefix(100)), name: "fuzz")
    _ = WALHeader.parse(input)
    _ = WALIndex.parse(bytes: input)
    _ = PropertyListReader().parse(input)
    guard input.count >= 3 else { return 0 }

    let flags = input[0]
    let shmLength = min(Int(input[1]) | Int(input[2]) << 8, input.count - 3)
    let shm = input[3..<(3 + shmLength)]
    let wal = input[(3 + shmLength)...]
    let db = directory + "/f.sqlite"
    if flags & 8 != 0 {
        write(db, wal.prefix(100))
    } else {
        let pageSize = WALHeader.parse(Array(wal.prefix(32)))?.pageSize ?? 4096
        let valid = pageSize >= 512 && pageSize <= 65536 && pageSize & (pageSize - 1) == 0
        write(db, ArraySlice(databaseFile(pageSize: valid ? pageSize : 4096)))
    }
    write(db + "-wal", wal)
    if flags & 4 != 0 { unlink(db + "-shm") } else { write(db + "-shm", shm) }

    let policy = [ChecksumPolicy.auto, .full, .none, .auto][Int(flags & 3)]
    do {
        let stores = try StoreLocator.locate(db)
        guard stores.count == 1 else { FuzzInput.fail("locate found \(stores.count) stores") }
        let report = try StoreInspector.inspect(stores[0], options: InspectionOptions(checksums: policy, runSQL: false))
        if let scan = report.wal.scan {
            if !(scan.mxFrame <= scan.validFrames && scan.validFrames <= scan.framesInFile) {
                FuzzInput.fail("frame counts: mx \(scan.mxFrame) valid \(scan.validFrames) inFile \(scan.framesInFile)")
            }
            if report.checkpoint.pendingFrames < 0 || report.checkpoint.pendingFrames > scan.mxFrame {
                FuzzInput.fail("pendingFrames \(report.checkpoint.pendingFrames), mxFrame \(scan.mxFrame)")
            }
        } else if report.checkpoint.pendingFrames != 0 {
            FuzzInput.fail("pending frames without a scan")
        }
        for format in StoreReportFormat.allCases { _ = ReportRenderer.render([report], format: format) }
    } catch {
        // Only the main database file may make inspection fail (flag 3: a fuzzed header).
        if flags & 8 == 0 { FuzzInput.fail("inspection failed on a valid database header: \(error)") }
    }
    return 0
}

@_cdecl("FuzzStore_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
