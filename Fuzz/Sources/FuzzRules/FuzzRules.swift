// Fuzz target: the rule loader (YAML structure through Yams, schema checks, PCRE2 compile errors with
// their line/column mapping) and, for files that load, the classifier built from them.
//
// Input: a rule file's text (any bytes; decoded as UTF-8 with replacement, as `RuleSet.readRuleFiles`
// refuses non-UTF-8 files before the loader sees them).
// Invariants besides "never traps": a failure is a RuleFileError whose line is inside the file (or 1)
// and whose message is one line; a loaded rule set builds a Classifier, runs its own examples
// (`cdlog rules test`) and classifies a few messages.
import CDLogKit
import FuzzSupport

let probes = [
    "CoreData: error: Error Domain=NSCocoaErrorDomain Code=134110 \"migration failed\"",
    "<CKError 0x600000c4a0a0: \"Partial Failure\" (2/1011); \"Failed to modify some records\">",
    "", "\u{FFFD}\u{0}\n\n",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: FuzzInput.bytes(data, size), as: UTF8.self)
    // libyaml counts \n, \r, \r\n, NEL, LS and PS as line breaks.
    let lineCount = 1 + text.unicodeScalars.reduce(0) { n, s in
        n + (s == "\n" || s == "\r" || s == "\u{85}" || s == "\u{2028}" || s == "\u{2029}" ? 1 : 0)
    }
    do {
        let set = try RuleSet(files: [(path: "fuzz.yaml", text: text)])
        let classifier = try Classifier(ruleSet: set)
        let scratch = classifier.makeScratch()
        for probe in probes { _ = classifier.classify(text: probe, scratch: scratch) }
        // `cdlog rules test` wraps every example in four formats: costly, so only for small files.
        if set.rules.count <= 4 { _ = RuleTester(classifier: classifier).run() }
    } catch let error as RuleFileError {
        if error.line < 1 || error.line > max(1, lineCount + 1) {
            FuzzInput.fail("error line \(error.line) outside the file (\(lineCount) lines): \(error)")
        }
        if error.column < 1 { FuzzInput.fail("error column \(error.column) < 1: \(error)") }
        _ = "\(error)"
    } catch {
        _ = "\(error)"
    }
    return 0
}

@_cdecl("FuzzRules_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
