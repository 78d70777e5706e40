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

    init() throws {
        retryAfter = try PCRERegex(
            #"(?i)(?:retry after (?<s1>\d+(?:\.\d+)?) ?s|CKRetryAfter\s*=\s*"?(?<s2>\d+(?:\.\d+)?)|CKErrorRetryAfterKey\s*[=:]\s*"?(?<s3>\d+(?:\.\d+)?)|"retry-after"\s*=\s*"?(?<s4>\d+(?:\.\d+)?))"#)
        errorCodes = [
            try PCRERegex(#"Error Domain=(?<domain>[A-Za-z0-9_.]+) Code=(?<code>-?\d+)"#),
            try PCRERegex(#"<CKError 0x[0-9a-fA-F]+: \\?"(?<name>[^"\\]+)\\?" \((?<code>\d+)"#),
            try PCRERegex(#"\((?<domain>Cocoa|CKErrorDomain|NSCocoaErrorDomain|NSSQLiteErrorDomain) error (?<code>-?\d+)\.?\)"#),
            try PCRERegex(#"(?<domain>CKErrorDomain|NSCocoaErrorDomain|NSSQLiteErrorDomain|CKInternalErrorDomain)[ :](?:error |Code=)?(?<code>-?\d+)"#),
        ]
        partialItem = try PCRERegex(
            #"(?:(?<key>[^\s=;{}<>"\\]+(?:\([^)\s]*\))?)\\?"?\s*=\s*\\?"?)?<CKError 0x[0-9a-fA-F]+: \\?"(?<name>[^"\\]+)\\?" \((?<code>\d+)"#)
    }

    func extract(_ extractor: BuiltinExtractor, from message: UnsafeRawBufferPointer, scratch: MatchScratch) -> [(String, String)] {
        switch extractor {
        case .retryAfter:
            guard let found = retryAfter.firstMatch(in: message, scratch: scratch) else { return [] }
            for (_, number) in retryAfter.groupNames where number < found.count {
                if let range = found[number] { return [("retryAfter", Classifier.text(message, range))] }
            }
            return []
        case .errorCode:
            for regex in errorCodes {
                guard let found = regex.firstMatch(in: message, scratch: scratch) else { continue }
                var result: [(String, String)] = []
                for (name, number) in regex.groupNames where number < found.count {
                    guard let range = found[number] else { continue }
                    var value = Classifier.text(message, range)
                    if name == "domain", value == "Cocoa" { value = "NSCocoaErrorDomain" }
                    result.append((name, value))
                }
                if regex === errorCodes[1] { result.append(("domain", "CKErrorDomain")) }
                return result
            }
            return []
        case .partialErrors:
            var items: [String] = []
            var offset = 0
            let names = Dictionary(uniqueKeysWithValues: partialItem.groupNames.map { ($0.name, $0.number) })
            while items.count < BuiltinExtractors.maxItems,
                  let found = partialItem.firstMatch(in: message, from: offset, scratch: scratch), let whole = found[0] {
                offset = max(whole.upperBound, offset + 1)
                func group(_ name: String) -> String? {
                    guard let number = names[name], number < found.count, let range = found[number] else { return nil }
                    return Classifier.text(message, range)
                }
                guard let code = group("code"), let name = group("name") else { continue }
                if code == "2", group("key") == nil { continue }  // the enclosing partial failure itself
                let key = group("key").map { $0 + ": " } ?? ""
                items.append("\(key)\(code) \(name)")
            }
            return items.isEmpty ? [] : [("partialErrors", items.joined(separator: "; "))]
        }
    }
}
