import CDLogCore

/// The extractors rules can ask for by name (Rules/README.md, "Built-in extractors").
///
/// Contract: each returns zero or more (field, value) pairs; none traps on any input, and each scans
/// the message at most a bounded number of times (`maxItems` partial errors).
struct BuiltinExtractors: Sendable {
    static let maxItems = 50

    private let retryAfter: PCRERegex
    private let errorCodes: [PCRERegex]
    private let partialItem: PCRERegex
    /// The exception's name, its reason and the method that raised it (`exception` extractor).
    private let exceptionName: PCRERegex, exceptionReason: PCRERegex, exceptionAPI: PCRERegex
    /// `partialItem`'s `code` and `name` group numbers (plain integers: a dictionary here, shared by the
    /// classifying threads, would have its reference count written by each of them per finding).
    private let partialCodeGroup: Int, partialNameGroup: Int

    /// Every pattern the extractors run.
    var patterns: [PCRERegex] { [retryAfter] + errorCodes + [exceptionName, exceptionReason, exceptionAPI] }

    init() throws {
        retryAfter = try PCRERegex(
            #"(?i)(?:retry after (?<s1>\d+(?:\.\d+)?) ?s|CKRetryAfter\s*=\s*"?(?<s2>\d+(?:\.\d+)?)|CKErrorRetryAfterKey\s*[=:]\s*"?(?<s3>\d+(?:\.\d+)?)|"retry-after"\s*=\s*"?(?<s4>\d+(?:\.\d+)?))"#)
        errorCodes = [
            try PCRERegex(#"Error Domain=(?<domain>[A-Za-z0-9_.]+) Code=(?<code>-?\d+)"#),
            try PCRERegex(#"<CKError 0x[0-9a-fA-F]+: \\?"(?<name>[^"\\]+)\\?" \((?<code>\d+)"#),
            try PCRERegex(#"\((?<domain>Cocoa|CKErrorDomain|NSCocoaErrorDomain|NSSQLiteErrorDomain) error (?<code>-?\d+)\.?\)"#),
            try PCRERegex(#"(?<domain>CKErrorDomain|NSCocoaErrorDomain|NSSQLiteErrorDomain|CKInternalErrorDomain)[ :](?:error |Code=)?(?<code>-?\d+)"#),
        ]
        // Each item is found by its `<CKError 0x…` and its key (`record:(zone) = `) is read backwards from
        // there: a leading optional key group in the pattern made PCRE2 try every start position with a
        // long run of key characters — quadratic in the length of such a run.
        partialItem = errorCodes[1]
        exceptionName = try PCRERegex(#"\b(?<v>(?:NS|CK|_NS)[A-Za-z]{2,60}Exception)\b"#)
        // `reason: '…'` (the uncaught-exception line), `Exception = … and userInfo` (caught by Core Data),
        // `Uncaught exception: Name: …` and `Fatal error: …` (a Swift trap); up to the end of the line.
        exceptionReason = try PCRERegex(#"(?:\breason: '?|Exception = |Uncaught exception: (?:\w+Exception: )?|(?i:fatal error): )(?<v>[^\n]{1,300})"#)
        exceptionAPI = try PCRERegex(#"(?<v>[-+]\[[A-Za-z_]\w{0,80}(?:\([A-Za-z_]\w{0,80}\))? [A-Za-z_][\w:]{0,120}\])"#)
        let groups = Dictionary(uniqueKeysWithValues: partialItem.groupNames.map { ($0.name, $0.number) })
        partialCodeGroup = groups["code"] ?? -1
        partialNameGroup = groups["name"] ?? -1
    }

    /// `mayMatch(pattern)` false says the pattern cannot match `message` (it lacks the pattern's
    /// literals), so it is not run.
    func extract(_ extractor: BuiltinExtractor, from message: UnsafeRawBufferPointer, scratch: MatchScratch,
                 mayMatch: (PCRERegex) -> Bool = { _ in true }) -> [(String, String)] {
        switch extractor {
        case .retryAfter:
            guard mayMatch(retryAfter), let found = retryAfter.firstMatch(in: message, scratch: scratch) else { return [] }
            for (_, number) in retryAfter.groupNames where number < found.count {
                if let range = found[number] { return [("retryAfter", message.trimmedText(range))] }
            }
            return []
        case .errorCode:
            for regex in errorCodes {
                guard mayMatch(regex), let found = regex.firstMatch(in: message, scratch: scratch) else { continue }
                var result: [(String, String)] = []
                for (name, number) in regex.groupNames where number < found.count {
                    guard let range = found[number] else { continue }
                    var value = message.trimmedText(range)
                    if name == "domain", value == "Cocoa" { value = "NSCocoaErrorDomain" }
                    result.append((name, value))
                }
                if regex === errorCodes[1] { result.append(("domain", "CKErrorDomain")) }
                return result
            }
            return []
        case .exception:
            var result: [(String, String)] = []
            for (field, regex) in [("exception", exceptionName), ("reason", exceptionReason), ("api", exceptionAPI)] {
                guard mayMatch(regex), let found = regex.firstMatch(in: message, scratch: scratch), found.count > 1,
                      let range = found[1] else { continue }
                var value = message.trimmedText(range)
                if field == "reason" {
                    // The closing quote (and ' with userInfo (null)') is not part of the reason.
                    for tail in [" with userInfo (null)", " and userInfo = (null)", "'"] where value.hasSuffix(tail) {
                        value.removeLast(tail.count)
                    }
                }
                if !value.isEmpty { result.append((field, value)) }
            }
            return result
        case .partialErrors:
            guard mayMatch(partialItem) else { return [] }
            var items: [String] = []
            var offset = 0
            let codeGroup = partialCodeGroup, nameGroup = partialNameGroup
            while items.count < BuiltinExtractors.maxItems,
                  let found = partialItem.firstMatch(in: message, from: offset, scratch: scratch), let whole = found[0] {
                let keyRange = BuiltinExtractors.partialErrorKey(in: message, before: whole.lowerBound, notBefore: offset)
                offset = max(whole.upperBound, offset + 1)
                func group(_ number: Int) -> String? {
                    guard number >= 0, number < found.count, let range = found[number] else { return nil }
                    return message.trimmedText(range)
                }
                guard let code = group(codeGroup), let name = group(nameGroup) else { continue }
                if code == "2", keyRange == nil { continue }  // the enclosing partial failure itself
                let key = keyRange.map { message.trimmedText($0) + ": " } ?? ""
                items.append("\(key)\(code) \(name)")
            }
            return items.isEmpty ? [] : [("partialErrors", items.joined(separator: "; "))]
        }
    }

    /// The key of a partial-error item whose `<CKError` starts at `start`: the text matched by
    /// `(?<key>[^\s=;{}<>"\\]+(?:\([^)\s]*\))?)\\?"?\s*=\s*\\?"?` just before it, read backwards and
    /// leftmost-longest as PCRE2 would, never reaching before `limit`. Nil when there is none.
    static func partialErrorKey(in message: UnsafeRawBufferPointer, before start: Int, notBefore limit: Int) -> Range<Int>? {
        func isKeyByte(_ b: UInt8) -> Bool {
            !ByteClass.isWhitespace(b) && b != UInt8(ascii: "=") && b != UInt8(ascii: ";") && b != UInt8(ascii: "{") && b != UInt8(ascii: "}")
                && b != UInt8(ascii: "<") && b != UInt8(ascii: ">") && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\")
        }
        var p = start
        // `\\?"?` before `<CKError`, then `\s*=\s*`, then `\\?"?` after the key.
        func skipQuote() {
            if p > limit, message[p - 1] == UInt8(ascii: "\"") { p -= 1 }
            if p > limit, message[p - 1] == UInt8(ascii: "\\") { p -= 1 }
        }
        skipQuote()
        while p > limit, ByteClass.isWhitespace(message[p - 1]) { p -= 1 }
        guard p > limit, message[p - 1] == UInt8(ascii: "=") else { return nil }
        p -= 1
        while p > limit, ByteClass.isWhitespace(message[p - 1]) { p -= 1 }
        skipQuote()
        let keyEnd = p
        // A plain run of key bytes…
        var plainStart = keyEnd
        while plainStart > limit, isKeyByte(message[plainStart - 1]) { plainStart -= 1 }
        var best: Int? = plainStart < keyEnd ? plainStart : nil
        // …or a run followed by `(…)` whose inside may hold bytes a key cannot.
        if keyEnd > limit, message[keyEnd - 1] == UInt8(ascii: ")") {
            var open = keyEnd - 2
            while open >= limit, message[open] != UInt8(ascii: ")"), !ByteClass.isWhitespace(message[open]) {
                if message[open] == UInt8(ascii: "(") {
                    var runStart = open
                    while runStart > limit, isKeyByte(message[runStart - 1]) { runStart -= 1 }
                    if runStart < open { best = min(best ?? runStart, runStart) }
                }
                open -= 1
            }
        }
        return best.map { $0..<keyEnd }
    }
}
