import CDLogCore
import CScan

/// Picks the winning rule for an entry and extracts its fields.
///
/// Contract: deterministic — the same message always gets the same verdict; rules are tried in rank
/// order (Rules/README.md "Which rule wins") and the first full match wins; a generic winner is then moved
/// to the area its entry names (Rules/tables/areas.yaml, console text only) and raised by a fatal wrapper. A
/// console message whose reading finds nothing better than a catch-all is read once more with its lines
/// joined (a message a page wrapped). Thread-safe to share; each thread passes its own `Classifier.Scratch`.
/// Never traps on any message bytes.
public final class Classifier: Sendable {
    public let ruleSet: RuleSet
    /// The literals `Classifier.admitting(_:ruleSet:)` added a gate for (nil: none).
    public let admittedLiterals: [[UInt8]]?
    /// Rules in rank order: priority, then severity, then declaration order (the `stack` rules apart).
    public let rankedRules: [Rule]
    /// The rules for a stack pasted without its crash line (`input: stack`), in rank order: tried only on a
    /// console entry that opens with a frame and that no other rule classified.
    public let stackRules: [Rule]
    private let prefilter: Prefilter
    private let extractors: BuiltinExtractors
    /// The literals each pattern run after a rule's patterns matched (fields, `exclude`, built-in
    /// extractors) needs: one whose literals the entry lacks is not run. Each scratch gets a copy of
    /// its own (`Scratch.gates`); the literals are in `gateStorage`.
    private let gates: [(ObjectIdentifier, LiteralGate)]
    private let gateStorage: FrozenStorage
    /// The code tables, fatal wrappers and fallback markers that data-resolved rules consult.
    private let codes: CodeCatalog?
    /// What an entry whose log category `tag` names a persistence library is read with (`tags` in
    /// Rules/tables/fallback.yaml), nil for every other category.
    func persistenceTagReading(_ tag: UnsafeRawBufferPointer) -> [UInt8]? { codes?.persistenceTagReading(tag) }
    /// Each rule's twin at `fatal`, by rule object: what a finding becomes inside a fatal wrapper.
    private let fatalTwins: [ObjectIdentifier: Rule]
    /// Each fatal rule's (and fatal twin's) twin at `error`: what a finding becomes where the exception
    /// was caught (`caught:` in Rules/tables/fatal.yaml).
    private let caughtTwins: [ObjectIdentifier: Rule]
    /// Each `info` rule's twin at `debug`: what a finding becomes where the entry prints a debug level word of its
    /// own (`debugLevel` in Rules/tables/fallback.yaml).
    private let debugTwins: [ObjectIdentifier: Rule]
    /// The areas that may move each rule's findings (index into `codes.areas`) and the rule's twin in
    /// that area's category, by rule object (Rules/tables/areas.yaml).
    private let areaTwins: [ObjectIdentifier: [(area: Int, twin: Rule)]]

    public convenience init(ruleSet: RuleSet) throws {
        try self.init(ruleSet: ruleSet, admittedLiterals: nil)
    }

    private init(ruleSet: RuleSet, admittedLiterals: [[UInt8]]?) throws {
        self.ruleSet = ruleSet
        self.admittedLiterals = admittedLiterals
        let ranked = ruleSet.rules.sorted { $0.outranks($1) }
        rankedRules = ranked.filter { $0.input != .stack }
        stackRules = ranked.filter { $0.input == .stack }
        extractors = try BuiltinExtractors()
        prefilter = Prefilter(patterns: rankedRules.map(\.patterns), required: rankedRules.map(\.required))
        codes = ruleSet.codes
        var gated = extractors.patterns
        for rule in ranked { gated += rule.fieldPatterns.map(\.regex) + rule.excluded }
        let storage = FrozenStorage()
        gateStorage = storage
        gates = gated.compactMap { regex in LiteralGate(pattern: regex, storage: storage).map { (ObjectIdentifier(regex), $0) } }
        var moved: [ObjectIdentifier: [(area: Int, twin: Rule)]] = [:]
        var movedRules: [Rule] = []
        for rule in ranked + (codes?.resolvedRules ?? []) {
            for (index, area) in (codes?.areas ?? []).enumerated() where area.moves(ruleID: rule.id) {
                // A row of the finding's own category holds it there (a nearer frame that says the crash is
                // the app's own keeps a deeper one from moving it); its name and advice are still added.
                let twin = rule.with(category: area.category, leadingAdvice: area.advice)
                moved[ObjectIdentifier(rule), default: []].append((index, twin))
                movedRules.append(twin)
            }
        }
        areaTwins = moved
        var twins: [ObjectIdentifier: Rule] = [:]
        for rule in ranked + (codes?.resolvedRules ?? []) + movedRules where rule.severity < .fatal {
            twins[ObjectIdentifier(rule)] = rule.with(severity: .fatal)
        }
        fatalTwins = twins
        var lowered: [ObjectIdentifier: Rule] = [:]
        for rule in ranked + (codes?.resolvedRules ?? []) + movedRules + Array(twins.values) where rule.severity == .fatal {
            lowered[ObjectIdentifier(rule)] = rule.with(severity: .error)
        }
        caughtTwins = lowered
        var quieter: [ObjectIdentifier: Rule] = [:]
        for rule in ranked + (codes?.resolvedRules ?? []) + movedRules where rule.severity == .info {
            quieter[ObjectIdentifier(rule)] = rule.with(severity: .debug)
        }
        debugTwins = quieter
    }

    /// The same classifier with its prefilter tuned to `sample`, a piece of the text it is about to
    /// classify (`Prefilter.tuned(toSample:)`): the same verdict for every message, found with fewer
    /// literal comparisons on text like the sample. Builds only a `LiteralScanner`; the rules and
    /// everything else are shared.
    @_spi(Testing) public func tuned(toSample sample: UnsafeRawBufferPointer) -> Classifier {
        Classifier(tuning: self, prefilter: prefilter.tuned(toSample: sample))
    }

    private init(tuning base: Classifier, prefilter: Prefilter) {
        ruleSet = base.ruleSet
        admittedLiterals = base.admittedLiterals
        rankedRules = base.rankedRules
        stackRules = base.stackRules
        self.prefilter = prefilter
        extractors = base.extractors
        gates = base.gates
        gateStorage = base.gateStorage
        codes = base.codes
        fatalTwins = base.fatalTwins
        caughtTwins = base.caughtTwins
        debugTwins = base.debugTwins
        areaTwins = base.areaTwins
    }

    /// A gate that proves an entry gets no verdict: when the literals it finds in a message admit no
    /// rule, `classify` returns nil for it (`Prefilter.quietEntryGate`). Nil when some rule could match
    /// without literals (a user rule without any, say).
    @_spi(Testing) public var quietEntryGate: QuietEntryGate? { prefilter.quietEntryGate }

    /// `Classifier(ruleSet:)` plus one rule that never gives a verdict, whose literals are `literals`: its
    /// quiet gate then admits every entry whose message holds one of them, so a run that also wants
    /// those entries unclassified (`cdlog report`'s appendix) can still skip the others unbuilt. Every
    /// verdict is the same. Nil when the result has no quiet gate (a literal of one or two bytes).
    public static func admitting(_ literals: [[UInt8]], ruleSet: RuleSet) throws -> Classifier? {
        guard !literals.isEmpty, !literals.contains(where: { $0.isEmpty || $0.contains { $0 < 0x20 } }) else { return nil }
        var yaml = "rules:\n  - id: gate.wanted-unclassified\n    title: Entries a run wants even without a verdict\n"
        yaml += "    category: store\n    severity: debug\n    priority: -1000\n    patterns:\n"
        for literal in literals {
            // Each literal, escaped, then a class that matches nothing: found by the prefilter, never matched.
            var pattern = ""
            for scalar in String(decoding: literal, as: UTF8.self).unicodeScalars {
                if scalar.isASCII, !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) { pattern += "\\" }
                pattern.unicodeScalars.append(scalar)
            }
            yaml += "      - '" + pattern.replacingOccurrences(of: "'", with: "''") + "[^\\s\\S]'\n"
        }
        let gated = try Classifier(ruleSet: RuleSet(files: [("<gate.wanted-unclassified>", yaml)], base: ruleSet),
                                   admittedLiterals: literals)
        return gated.quietEntryGate == nil ? nil : gated
    }

    /// Per-thread working state.
    /// One thread's; its state is exempt from run-time exclusivity checks (one per entry otherwise).
    public final class Scratch {
        let match = MatchScratch()
        /// This thread's PCRE2 match state, for callers that run catalog patterns themselves (`cdlog explain`).
        public var matchScratch: MatchScratch { match }
        let prefilter: Prefilter.Evaluation
        /// The prefilter's table pointers, copied into this thread's own object: read from the shared
        /// classifier they would sit beside its reference count, which other threads write.
        let prefilterTables: Prefilter.Tables
        /// True when a reading of the current message found some rule's literals (`classifyOnce`).
        @exclusivity(unchecked) var admittedSomeRule = false
        /// The classifier's gates, in a dictionary of this thread's own: looked up in a shared one, every
        /// finding would write its reference count from every thread.
        let gates: [ObjectIdentifier: LiteralGate]
        init(_ prefilter: Prefilter, gates: [(ObjectIdentifier, LiteralGate)]) {
            self.prefilter = prefilter.makeEvaluation()
            prefilterTables = prefilter.tables
            self.gates = Dictionary(gates, uniquingKeysWith: { first, _ in first })
        }
        /// True when some pattern hit PCRE2's match limit since the last reset.
        public var exceededMatchLimit: Bool {
            get { match.exceededLimit }
            set { match.exceededLimit = newValue }
        }
    }

    public func makeScratch() -> Scratch { Scratch(prefilter, gates: gates) }

    /// Classifies a message (raw UTF-8 bytes); `preset` fields come first in the result.
    /// `isCrashReport` selects the rules for crash-report summaries (`input: crash`/`any`) instead of the
    /// console rules (`input: log`/`any`).
    /// `wrapped`: the splitter joined lines a page broke (`RawEntry.wrapped`); the message is read with its
    /// lines joined too, whatever the first reading found.
    public func classify(message: UnsafeRawBufferPointer, preset: [(name: String, value: String)] = [],
                         isCrashReport: Bool = false, wrapped: Bool = false, scratch: Scratch) -> Classification? {
        var opensWithFrame: Bool? = nil
        scratch.admittedSomeRule = false
        var found = classifyReading(message: message, preset: preset, isCrashReport: isCrashReport, wrapped: wrapped,
                                    scratch: scratch, opensWithFrame: &opensWithFrame)
        // A message a forum or blog engine set in typography (`Can’t find model`, `“The file”`, `…`), or one
        // printed inside a string (`Error:\nUnable to find any managed object models.`), is read once more
        // as the program printed it. The rules spell what the frameworks print; the plain reading counts
        // where the first found nothing, only a catch-all, or a rule the plain one's outranks (a CKError's
        // code row where its phrase rule needs the straight quotes of `"Quota Exceeded" (25/2035)`). The
        // first reading keeps the rules that spell the curly quotes of Foundation's own descriptions and
        // the escaped userInfo of a nested error.
        // Escapes are looked for only where the first reading found nothing better than a catch-all: a
        // nested error's `\"` and `\n` are common in consoles, and read as printed there.
        // A message in which no rule found its literals is not read again: a quote ends every literal
        // (`RequiredLiterals`), so the plain text would hold no more of them.
        if !isCrashReport, scratch.admittedSomeRule, var plain = Classifier.plainText(message, escapes: found.map {
            $0.rule.isCatchAll || $0.rule.namesOnlyAnException } ?? true) {
            var ignored: Bool? = nil
            let second = plain.withUnsafeMutableBytes {
                classifyReading(message: UnsafeRawBufferPointer($0), preset: preset, isCrashReport: false, wrapped: wrapped,
                                scratch: scratch, opensWithFrame: &ignored)
            }
            // A catch-all gives way to the plain reading's verdict, whatever it is: it read the words as
            // printed. The same rule read plain finds the fields its patterns spell with straight quotes too.
            if let second, found == nil || found!.rule.isCatchAll
                || (!second.rule.isCatchAll && second.rule.outranks(found!.rule))
                || (second.rule.id == found!.rule.id && second.fields.count > found!.fields.count) { found = second }
        }
        // A stack pasted without its crash line (its first line a frame) that nothing else named.
        guard found == nil, !isCrashReport, !stackRules.isEmpty,
              opensWithFrame ?? StackLines.opensWithFrame(message) else { return found }
        for rule in stackRules {
            if let verdict = verdict(of: rule, message: message, preset: preset, scratch: scratch) { return verdict }
        }
        return nil
    }

    /// The first reading of `message`, and the reading with its lines joined where that says more.
    /// `opensWithFrame` is set where it had to ask whether the message opens with a stack frame, so the
    /// caller does not ask again.
    @inline(__always)
    private func classifyReading(message: UnsafeRawBufferPointer, preset: [(name: String, value: String)],
                                 isCrashReport: Bool, wrapped: Bool, scratch: Scratch, opensWithFrame: inout Bool?) -> Classification? {
        let first = classifyOnce(message: message, preset: preset, isCrashReport: isCrashReport, scratch: scratch)
        // A message a poster or a page wrapped (`… claim the NSManagedObject\nsubclass 'Item'`) is read
        // again with its lines joined when the first reading found nothing better than a catch-all or an
        // exception known only by its name (its reason may be what the wrapping broke); the joined reading
        // counts when the first found nothing, or when its rule is no catch-all and outranks the first one.
        // An entry the splitter knows a page wrapped is read joined whatever the first reading found: the
        // break may fall inside the phrase of a rule that outranks it (`illegal multi-threaded access to` /
        // `database connection`).
        guard !isCrashReport, wrapped || first == nil || first!.rule.isCatchAll || first!.rule.namesOnlyAnException else { return first }
        let newline = withUnsafeBytes(of: UInt8(0x0A)) { cscan_find(message.baseAddress, message.count, $0.baseAddress, 1) }
        guard newline >= 0, newline + 1 < message.count else { return first }
        // A stack's lines are frames, not a wrapped sentence: joined, `symbol 0x…` frames would read as words.
        let stack = StackLines.opensWithFrame(message)
        opensWithFrame = stack
        if stack { return first }
        // Frames further down (Dart's `#0  symbol (package:…)` under an exception) are not words of the
        // sentence either: the joined reading leaves them out.
        var joined = StackLines.withoutFrames(message).map { frameless in
            frameless.withUnsafeBytes { Classifier.joinedLines($0) }
        } ?? Classifier.joinedLines(message)
        let second = joined.withUnsafeMutableBytes {
            classifyOnce(message: UnsafeRawBufferPointer($0), preset: preset, isCrashReport: false, scratch: scratch)
        }
        guard let second else { return first }
        guard let first else { return second }
        // Where a page wrapped the entry, the joined text is the message as printed: its verdict already
        // weighed every rule the first reading found, unless it fell back to a catch-all. The same rule read
        // both times keeps the first reading where only that one found an area: it also saw the frames the
        // joined one leaves out (a crash's SQLite frames).
        if wrapped {
            if first.fields.contains(where: { $0.name == "area" }), !second.fields.contains(where: { $0.name == "area" }),
               second.rule.id == first.rule.id { return first }
            return second.rule.isCatchAll && !first.rule.isCatchAll ? first : second
        }
        return !second.rule.isCatchAll && second.rule.outranks(first.rule) ? second : first
    }

    /// `message` as the program printed it, nil when nothing in it was changed on the way: typography
    /// undone (the quotes `‘ ’ ‚ ‛` as `'`, `“ ” „ ‟ ″` as `"`, `…` as `...`); with `escapes`, also a
    /// no-break space as a space and, in a message that holds a `\n`, the escapes of a message printed
    /// inside a string (`\n`, `\r`, `\t` as the characters, `\"` as `"`, `\\` as `\`). Each lead byte
    /// is first looked for with one `memchr`-like scan: one scan without `escapes`, three with.
    static func plainText(_ message: UnsafeRawBufferPointer, escapes: Bool = true) -> [UInt8]? {
        // Without allocating: this runs on every console entry a rule classified.
        func find(_ byte: UInt8, before end: Int) -> Int {
            withUnsafeBytes(of: byte) { cscan_find(message.baseAddress, end, $0.baseAddress, 1) }
        }
        var start = find(0xE2, before: message.count)
        func include(_ found: Int) { if found >= 0, start < 0 || found < start { start = found } }
        var undoesSpaces = false, undoesEscapes = false
        if escapes {
            let space = find(0xC2, before: message.count)
            undoesSpaces = space >= 0
            include(space)
            // From the first backslash on, where one is followed by an `n` somewhere.
            let backslash = find(UInt8(ascii: "\\"), before: message.count)
            if backslash >= 0 {
                let escapedBreak = withUnsafeBytes(of: (UInt8(ascii: "\\"), UInt8(ascii: "n"))) {
                    cscan_find(message.baseAddress! + backslash, message.count - backslash, $0.baseAddress, 2)
                }
                undoesEscapes = escapedBreak >= 0
                if undoesEscapes { include(backslash) }
            }
        }
        guard start >= 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(message.count)
        out.append(contentsOf: message[0..<start])
        var changed = false
        var i = start
        while i < message.count {
            let byte = message[i]
            if undoesEscapes, byte == UInt8(ascii: "\\"), i + 1 < message.count {
                let escaped: UInt8?
                switch message[i + 1] {
                case UInt8(ascii: "n"): escaped = 0x0A
                case UInt8(ascii: "r"): escaped = 0x0D
                case UInt8(ascii: "t"): escaped = 0x09
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped = message[i + 1]
                default: escaped = nil
                }
                if let escaped {
                    out.append(escaped)
                    i += 2
                    changed = true
                    continue
                }
            }
            if undoesSpaces, byte == 0xC2, i + 1 < message.count, message[i + 1] == 0xA0 {
                out.append(0x20)
                i += 2
                changed = true
                continue
            }
            if byte == 0xE2, i + 2 < message.count, message[i + 1] == 0x80 {
                let replacement: [UInt8]?
                switch message[i + 2] {
                case 0x98, 0x99, 0x9A, 0x9B: replacement = [UInt8(ascii: "'")]
                case 0x9C, 0x9D, 0x9E, 0x9F, 0xB3: replacement = [UInt8(ascii: "\"")]
                case 0xA6: replacement = [UInt8(ascii: "."), UInt8(ascii: "."), UInt8(ascii: ".")]
                default: replacement = nil
                }
                if let replacement {
                    out.append(contentsOf: replacement)
                    i += 3
                    changed = true
                    continue
                }
            }
            out.append(byte)
            i += 1
        }
        return changed ? out : nil
    }

    /// `message` with each line break and the white space around it replaced by one space. A code
    /// comment's marker opening a continuation line (`/// future backing data`, `// …`) goes with it: a
    /// message quoted in a comment was wrapped by the comment, not by the program.
    static func joinedLines(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count)
        var i = 0
        while i < message.count {
            let byte = message[i]
            if byte == 0x0A || byte == 0x0D {
                while let last = out.last, last == 0x20 || last == 0x09 { out.removeLast() }
                var j = i + 1
                while j < message.count, message[j] == 0x0A || message[j] == 0x0D || message[j] == 0x20 || message[j] == 0x09 { j += 1 }
                if j + 2 < message.count, message[j] == UInt8(ascii: "/"), message[j + 1] == UInt8(ascii: "/") {
                    var k = j + 2
                    while k < message.count, message[k] == UInt8(ascii: "/") { k += 1 }
                    if k < message.count, message[k] == 0x20 || message[k] == 0x09 {
                        j = k
                        while j < message.count, message[j] == 0x20 || message[j] == 0x09 { j += 1 }
                    }
                }
                if !out.isEmpty, j < message.count { out.append(0x20) }
                i = j
                continue
            }
            out.append(byte)
            i += 1
        }
        return out
    }

    @inline(__always)
    private func classifyOnce(message: UnsafeRawBufferPointer, preset: [(name: String, value: String)],
                              isCrashReport: Bool, scratch: Scratch) -> Classification? {
        // The tables are read where they are used, not copied to a local first (a copy of all their
        // fields per entry).
        guard scratch.prefilterTables.scan(message, scratch.prefilter) else { return nil }
        scratch.admittedSomeRule = true
        scratch.match.guardedLimitHitInEntry = false
        for candidate in scratch.prefilter.candidates {
            let index = Int(candidate)
            let rule = rankedRules[index]
            guard rule.input.applies(toCrashReport: isCrashReport),
                  scratch.prefilterTables.admitsRequirements(ruleIndex: index, scratch.prefilter, message: message) else { continue }
            var groups: [Range<Int>?]? = nil
            var winningPattern: PCRERegex? = nil
            for (patternIndex, pattern) in rule.patterns.enumerated()
            where scratch.prefilterTables.admits(ruleIndex: index, patternIndex: patternIndex, scratch.prefilter) {
                if let found = pattern.firstMatch(in: message, scratch: scratch.match) {
                    groups = found
                    winningPattern = pattern
                    break
                }
            }
            guard let groups, let winningPattern else { continue }
            if let verdict = finish(rule, groups: groups, pattern: winningPattern, message: message, preset: preset,
                                    isCrashReport: isCrashReport, scratch: scratch) { return verdict }
        }
        return nil
    }

    /// `rule`'s verdict on console `message` when one of its patterns matches and the rest of it agrees
    /// (the `stack` rules, tried outside the prefilter); nil otherwise.
    private func verdict(of rule: Rule, message: UnsafeRawBufferPointer, preset: [(name: String, value: String)],
                         scratch: Scratch) -> Classification? {
        for pattern in rule.patterns {
            if let found = pattern.firstMatch(in: message, scratch: scratch.match) {
                return finish(rule, groups: found, pattern: pattern, message: message, preset: preset,
                              isCrashReport: false, scratch: scratch)
            }
        }
        return nil
    }

    /// The finding of `rule`, whose `pattern` matched `message` with `groups`: nil when its `require` or
    /// `exclude` patterns or its data say no; else its fields, moved to the area the entry names, raised by
    /// a fatal wrapper, lowered where the exception was caught.
    @inline(__always)
    private func finish(_ rule: Rule, groups: [Range<Int>?], pattern winningPattern: PCRERegex, message: UnsafeRawBufferPointer,
                        preset: [(name: String, value: String)], isCrashReport: Bool, scratch: Scratch) -> Classification? {
        // Patterns run after a match only where the entry holds one of the literals they need.
        func mayMatch(_ regex: PCRERegex) -> Bool {
            scratch.gates[ObjectIdentifier(regex)]?.mayMatch(message) ?? true
        }
        guard rule.required.allSatisfy({ $0.matches(message, scratch: scratch.match) }),
              !rule.excluded.contains(where: { mayMatch($0) && $0.matches(message, scratch: scratch.match) }) else { return nil }
        var fields = preset
        // Room for the usual handful at once, not grown one append at a time (three allocations).
        fields.reserveCapacity(preset.count + 8)
        func add(_ name: String, _ value: String) {
            if !fields.contains(where: { $0.name == name }) { fields.append((name, value)) }
        }
        var verdict = rule
        if let resolution = rule.resolution {
            guard let codes, let resolved = resolve(rule, resolution, codes, message: message, scratch: scratch, add: add) else { return nil }
            verdict = resolved
        }
        for (name, number) in winningPattern.groupNames {
            if number < groups.count, let range = groups[number] {
                add(name, message.trimmedText(range))
            }
        }
        for (name, regex) in rule.fieldPatterns {
            guard mayMatch(regex), let found = regex.firstMatch(in: message, scratch: scratch.match) else { continue }
            if regex.groupNames.isEmpty {
                if found.count > 1, let range = found[1] { add(name, message.trimmedText(range)) }
            } else {
                for (group, number) in regex.groupNames where number < found.count {
                    if let range = found[number] { add(group, message.trimmedText(range)) }
                }
            }
        }
        for extractor in rule.extractors {
            for (name, value) in extractors.extract(extractor, from: message, scratch: scratch.match, mayMatch: mayMatch) {
                add(name, value)
            }
        }
        // A generic finding in a log (a crash no rule explained, a file code) takes the area its entry
        // names. A crash report stays `crash` (docs/domain.md): its blamed cause and frames say where; so
        // does a part of one pasted without its header, whose frames keep the report's tab-separated columns,
        // and a crash service's issue that summarises one (Crashlytics' `#### in …` / `Number of crashes:`).
        if !isCrashReport, let candidates = areaTwins[ObjectIdentifier(verdict)], let codes,
           verdict.category != .crash || !(StackLines.hasReportColumns(message) || StackLines.isCrashServiceStub(message)),
           let moved = codes.nearestArea(candidates, in: message, ranges: [0..<message.count], scratch: scratch.match) {
            add("area", codes.areas[moved.area].name)
            verdict = moved.twin
        }
        // A fatal wrapper (an uncaught exception, `Fatal error:`, a `try!` trap) raises what it wraps.
        if verdict.severity < .fatal, let codes,
           let wrapper = codes.fatalWrapper(in: message, scratch: scratch.match),
           let twin = fatalTwins[ObjectIdentifier(verdict)] {
            add("fatal", wrapper.name)
            verdict = twin
        }
        // Something caught the exception and went on (a test runner's `failed: caught "N"`, AppKit's run
        // loop, a notification center): a failed test or a logged exception, not a termination.
        if verdict.severity == .fatal, let codes, !codes.catchers.isEmpty,
           let catcher = codes.catcher(in: message, scratch: scratch.match),
           let twin = caughtTwins[ObjectIdentifier(verdict)] {
            add("caught", catcher.name)
            verdict = twin
        }
        // Routine work printed at a debug level (`CoreData: debug: CoreData+CloudKit: …`, a library's `- [debug]`):
        // reported at `debug`. Only the message's first bytes are read, where a logger prints its level.
        if verdict.severity == .info, let debugLevel = codes?.debugLevel, let twin = debugTwins[ObjectIdentifier(verdict)],
           debugLevel.matches(UnsafeRawBufferPointer(rebasing: message[..<min(message.count, CodeCatalog.debugLevelWindow)]),
                              scratch: scratch.match) {
            verdict = twin
        }
        return Classification(rule: verdict, fields: fields)
    }

    /// The verdict the data gives `rule` (whose patterns matched `message`), nil when it has none.
    /// The fallbacks read the words a message carries, not the frames of a stack pasted with it nor the
    /// source location of a Swift trap: a symbol (`-[BAUserSQLiteDatasource attributes]`, `FMDatabaseQueue
    /// inDatabase:`) or a file (`…/Database/Store.swift:42`) names code that ran, not what went wrong, and
    /// where a crash happened is the area table's to say. An entry whose persistence words or failure words
    /// are all in frames or source locations is left to the rules for terminations.
    private func resolve(_ rule: Rule, _ resolution: RuleResolution, _ codes: CodeCatalog, message: UnsafeRawBufferPointer,
                         scratch: Scratch, add: (String, String) -> Void) -> Rule? {
        guard resolution == .fallback || resolution == .activity else {
            return codes.resolve(resolution, severity: rule.severity, message: message, scratch: scratch.match, add: add)
        }
        var words = StackLines.withoutFrames(message)
        let withoutLocations: [UInt8]?
        if let frameless = words {
            withoutLocations = frameless.withUnsafeBytes { StackLines.withoutSourceLocations($0) }
        } else {
            withoutLocations = StackLines.withoutSourceLocations(message)
        }
        if let withoutLocations { words = withoutLocations }
        guard let words else {
            return codes.resolve(resolution, severity: rule.severity, message: message, scratch: scratch.match, add: add)
        }
        return words.withUnsafeBytes { text -> Rule? in
            guard rule.patterns.contains(where: { $0.matches(text, scratch: scratch.match) }),
                  rule.required.allSatisfy({ $0.matches(text, scratch: scratch.match) }) else { return nil }
            return codes.resolve(resolution, severity: rule.severity, message: text, scratch: scratch.match, add: add)
        }
    }

    /// Convenience for tests and `rules test`: classifies a string.
    public func classify(text: String, isCrashReport: Bool = false, scratch: Scratch) -> Classification? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes {
            classify(message: UnsafeRawBufferPointer($0), isCrashReport: isCrashReport, scratch: scratch)
        }
    }
}


extension Classifier {
    /// True when `rule` alone matches `text` (patterns, `require`, `exclude`), whatever other rules say.
    public func ruleMatches(_ rule: Rule, text: String, scratch: Scratch) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { raw in
            let message = UnsafeRawBufferPointer(raw)
            guard rule.patterns.contains(where: { $0.matches(message, scratch: scratch.match) }) else { return false }
            return rule.required.allSatisfy { $0.matches(message, scratch: scratch.match) }
                && !rule.excluded.contains { $0.matches(message, scratch: scratch.match) }
        }
    }
}
