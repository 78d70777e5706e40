import Foundation
@testable import ReportKit
@_spi(Testing) @testable import CDLogKit
import Testing

/// The template masker's one-pass fast path against its regex, the reference (issue 26: the regex was a
/// quarter of a report's work). Same output on every line of the samples and the labelled corpus, and on
/// generated text made of the characters the alternatives turn on.
@Suite struct TemplateMaskerTests {
    static func realTexts() throws -> [String] {
        var texts: [String] = []
        let root = ReportTestSupport.packageRoot
        for folder in ["Samples/logs", "Samples/crash", "Samples/report"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted()
            for name in names {
                guard let text = try? String(contentsOf: root.appendingPathComponent(folder + "/" + name), encoding: .utf8) else { continue }
                texts += text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            }
        }
        let eval = root.appendingPathComponent("Eval/dev")
        for name in try FileManager.default.contentsOfDirectory(atPath: eval.path).sorted() where name.hasSuffix(".jsonl") {
            let lines = try String(contentsOf: eval.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
            for line in lines {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let text = object["text"] as? String else { continue }
                texts += text.split(separator: "\n").map(String.init)
            }
        }
        return texts
    }

    @Test func fastPathMatchesTheRegexOnRealText() throws {
        let masker = TemplateMasker()
        var fast = 0
        let texts = try Self.realTexts()
        #expect(texts.count > 5_000)
        for text in texts {
            guard let quick = TemplateMasker.maskWithoutRegex(text) else { continue }
            fast += 1
            let reference = masker.maskWithRegex(text)
            #expect(quick == reference, "\(text.debugDescription)")
            if quick != reference { break }
        }
        // Most lines take the fast path.
        #expect(fast * 2 > texts.count)
    }

    @Test func fastPathMatchesTheRegexOnGeneratedText() {
        let masker = TemplateMasker()
        let pieces = ["0", "1", "9", "a", "f", "F", "g", "x", "0x", "-", ".", "/", " ", "_", ":", "=", "\"", "'", "<", ">", ",",
                      ";", ")", "}", "]", "\t", "é", "€", "Support/", " Support/", "Application Support/", "/var/", "12.5",
                      "deadbeefdeadbeef", "0x7f", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "Name", "ab"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var checked = 0
        for _ in 0..<20_000 {
            let text = (0..<(next() % 24)).map { _ in pieces[next() % pieces.count] }.joined()
            guard let quick = TemplateMasker.maskWithoutRegex(text) else { continue }
            checked += 1
            let reference = masker.maskWithRegex(text)
            #expect(quick == reference, "\(text.debugDescription)")
            if quick != reference { break }
        }
        #expect(checked > 15_000)
    }

    @Test func textThatMayHoldAnAddressOrURLTakesTheRegex() {
        #expect(TemplateMasker.maskWithoutRegex("mail me@example.com") == nil)
        #expect(TemplateMasker.maskWithoutRegex("see file:///tmp/x.sqlite") == nil)
        #expect(TemplateMasker.maskWithoutRegex("recordName=ABC") == nil)
        #expect(TemplateMasker().mask("mail me@example.com at 0x1f") == "mail <email> at <addr>")
        #expect(TemplateMasker().mask("store /var/mobile/Containers/Data/x.sqlite 3F2504E0-4F89-11D3-9A0C-0305E82C3301 took 12.5 s")
                == "store <path> <uuid> took <n> s")
    }

    /// The ASCII fast cut of first lines and excerpts against counting Characters, the reference.
    @Test func asciiCutMatchesCharacterCut() {
        let pieces = ["a", "Z", " ", "\r", "\r\n", "e\u{301}", "\u{301}", "é", "👍🏽", "\t", "1", "…", "x\n"]
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<5_000 {
            let limit = 1 + next() % 12
            let ascii = String(repeating: "a", count: next() % 16)
            let text = ascii + (0..<(next() % 6)).map { _ in pieces[next() % pieces.count] }.joined()
            let line = text[..<text.firstLineFeed]
            let reference = line.count > limit ? String(line.prefix(limit)) + "…" : String(line)
            #expect(text.firstLine(limit: limit) == reference, "\(text.debugDescription) limit \(limit)")
            #expect(ExcerptCutter.plain.firstLine(text, limit: limit) == reference, "\(text.debugDescription) limit \(limit)")
        }
    }

    /// The timeline's folding key, hashed as the scanner goes, against masking the cut first line and
    /// hashing the string: on real entries, on whole texts, and on generated multi-line text around the cut.
    @Test func foldingKeyIsTheHashOfTheMaskedFirstLine() throws {
        let masker = TemplateMasker()
        func check(_ text: String, limit: Int) -> Bool {
            // Masked first, then cut at `limit` bytes.
            let firstLine = String(text[..<text.firstLineFeed])
            var masked = masker.mask(firstLine)
            let reference = masked.withUTF8 { bytes -> UInt64 in
                var hash = TemplateHash()
                hash.keep(UnsafeBufferPointer(rebasing: bytes.prefix(limit)))
                return hash.value
            }
            let key = masker.foldingKey(ofFirstLineOf: text, limit: limit)
            #expect(key == reference, "\(text.debugDescription) limit \(limit)")
            // The C scanner (`hashWithoutRegex`) against the Swift one, on the whole text.
            let same = Array(text.utf8).withUnsafeBufferPointer { bytes -> Bool in
                var hash = TemplateHash()
                let scanned = TemplateMasker.scan(bytes, into: &hash)
                var masked = MaskedBytes()
                _ = TemplateMasker.scan(bytes, into: &masked)
                var capped = TemplateHash()
                masked.bytes.withUnsafeBufferPointer { capped.keep(UnsafeBufferPointer(rebasing: $0.prefix(limit))) }
                return TemplateMasker.hashWithoutRegex(bytes) == (scanned ? hash.value : nil)
                    && TemplateMasker.hashWithoutRegex(bytes, limit: limit) == (scanned ? capped.value : nil)
            }
            #expect(same, "C and Swift scanners differ on \(text.debugDescription)")
            return key == reference && same
        }
        let texts = try Self.realTexts()
        for text in texts where !check(text, limit: 400) || !check(text, limit: 40) { return }
        let pieces = ["a", "0", "12.5", " ", "\n", "\r\n", "é", "👍🏽", "/", "/var/", " Support/", "Application Support/",
                      "0x7f", "deadbeefdeadbeef", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "@", "://", "Name=", "…", "."]
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<20_000 {
            let text = (0..<(next() % 30)).map { _ in pieces[next() % pieces.count] }.joined()
            if !check(text, limit: 1 + next() % 40) { return }
        }
        // Different templates, different keys; one template, one key.
        #expect(masker.foldingKey(ofFirstLineOf: "took 12 ms", limit: 400) == masker.foldingKey(ofFirstLineOf: "took 3 ms\nmore", limit: 400))
        #expect(masker.foldingKey(ofFirstLineOf: "took 12 ms", limit: 400) != masker.foldingKey(ofFirstLineOf: "took 12 s", limit: 400))
        // The hash is fixed, not seeded per run (fingerprints depend on it: a change here changes them all).
        #expect(TemplateHash("a").value == Self.pinnedHashOfA)
        #expect(TemplateHash("").value != TemplateHash("\u{0}").value, "the length is part of the hash")
        // However the bytes are split between keep calls, the hash is the same.
        let text = Array("CoreData: error: <uuid> took <n> ms in /path/to/Store.sqlite, retrying 12345678".utf8)
        let whole = TemplateHash(String(decoding: text, as: UTF8.self)).value
        var seed: UInt64 = 7
        for _ in 0..<200 {
            var hash = TemplateHash()
            var at = 0
            text.withUnsafeBufferPointer { all in
                while at < all.count {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    let length = min(all.count - at, Int(seed >> 60))
                    if length == 0 { hash.add(all[at]); at += 1; continue }
                    hash.keep(UnsafeBufferPointer(rebasing: all[at..<(at + length)]))
                    at += length
                }
            }
            #expect(hash.value == whole)
        }
    }

    static let pinnedHashOfA: UInt64 = 3_497_631_008_840_463_731
}
