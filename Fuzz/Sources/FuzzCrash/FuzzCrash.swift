// Fuzz target: the crash-report readers (.ips header + JSON or legacy-text body, Xcode "Translated
// Report", legacy .crash text, MetricKit payloads), their iterative JSON parser, the watchdog blame
// logic and the summaries the classifier sees.
//
// Input: a whole crash-report document.
// Invariants besides "never traps": detection only looks at the first 64 KiB; a document either gives
// at least one entry or throws a one-line ToolFailure-style error; every entry can be classified.
import CDLogKit
import CrashReports
import FuzzSupport

let classifier: Classifier = {
    do { return try Classifier(ruleSet: RuleSet.embedded()) } catch { fatalError("embedded rules: \(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    _ = CrashReportReader.looksLikeCrashReport(ArraySlice(bytes))
    for line in String(decoding: bytes.prefix(4096), as: UTF8.self).split(separator: "\n").prefix(8) {
        _ = CrashReportReader.isPastedReportStart(line)
    }
    do {
        let entries = try CrashReportReader.entries(fromDocument: bytes, source: "fuzz.ips")
        if entries.isEmpty { FuzzInput.fail("no entries and no error") }
        let scratch = classifier.makeScratch()
        for entry in entries {
            if entry.line < 1 || entry.endLine < entry.line { FuzzInput.fail("bad line range \(entry.line)-\(entry.endLine)") }
            var message = Array(entry.message.utf8)
            _ = message.withUnsafeMutableBytes {
                classifier.classify(message: UnsafeRawBufferPointer($0), preset: entry.presetFields,
                                    isCrashReport: true, scratch: scratch)
            }
        }
    } catch {
        let text = "\(error)"
        if text.contains("\n") { FuzzInput.fail("multi-line error message: \(text)") }
    }
    return 0
}

@_cdecl("FuzzCrash_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
