import CDLogCore
import CScan

/// `log show --style ndjson` (one object per line) and `--style json` (one array of objects, usually
/// pretty-printed over many lines): both are a stream of top-level event objects.
///
/// Contract: objects are found by tracking string state and nesting depth byte by byte, without
/// recursion, so any nesting depth is safe; an object's bytes are kept up to
/// `EntryLimits.maxMessageBytes` (beyond that the entry is marked truncated). Bytes outside objects
/// (`[`, `,`, whitespace, junk) are skipped. An object cut off by the end of input is still reported.
struct JSONEventSplitter {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private(set) var object: [UInt8] = []
    private(set) var objectTruncated = false
    private(set) var startLine = 0
    /// Depth at which event objects live: 1 for ndjson, 2 inside a json array.
    private var eventDepth = 0

    var isInsideObject: Bool { eventDepth > 0 }

    /// True when no object, string or bracket is open: the next line starts afresh.
    var isAtTopLevel: Bool { depth == 0 && eventDepth == 0 && !inString && !escaped }

    /// Feeds one line; calls `emit` for every event object completed in it.
    /// An object that starts and ends within the line (every ndjson event) is handed out from the line
    /// itself, without a copy; `object` only collects objects spread over lines.
    mutating func feed(_ line: UnsafeRawBufferPointer, lineNumber: Int,
                       emit: (_ object: UnsafeBufferPointer<UInt8>, _ truncated: Bool, _ startLine: Int) throws -> Void) rethrows {
        var runStart = 0
        var startedInLine = false
        var index = 0
        let count = line.count
        while index < count {
            if inString && !escaped {
                // Skip the string's plain run at once (eight bytes a step) to its next quote or backslash.
                index += cscan_json_plain_prefix(line.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, count - index)
                guard index < count else { break }
            }
            let byte = line[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                if eventDepth > 0 { inString = true }
            case UInt8(ascii: "{"):
                depth += 1
                if eventDepth == 0 {
                    eventDepth = depth
                    if !object.isEmpty { object.removeAll(keepingCapacity: true) }
                    objectTruncated = false
                    startLine = lineNumber
                    runStart = index
                    startedInLine = true
                }
            case UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth > 0 { depth -= 1 }
                if eventDepth > 0, depth < eventDepth, byte == UInt8(ascii: "}") {
                    eventDepth = 0
                    if startedInLine, index - runStart < EntryLimits.maxMessageBytes {
                        try emit(UnsafeBufferPointer(rebasing: line.assumingMemoryBound(to: UInt8.self)[runStart...index]), false, startLine)
                    } else {
                        append(UnsafeRawBufferPointer(rebasing: line[runStart...index]))
                        try object.withUnsafeBufferPointer { try emit($0, objectTruncated, startLine) }
                        object.removeAll(keepingCapacity: true)
                    }
                    startedInLine = false
                    runStart = index + 1
                }
            default: break
            }
            index += 1
        }
        if eventDepth > 0 {
            append(UnsafeRawBufferPointer(rebasing: line[min(runStart, count)..<count]))
            append(newline: ())
        }
    }

    /// At the end of input: an unfinished object is reported as it is.
    mutating func finish(emit: (_ object: UnsafeBufferPointer<UInt8>, _ truncated: Bool, _ startLine: Int) throws -> Void) rethrows {
        if eventDepth > 0 {
            eventDepth = 0
            if object.last == 0x0A { object.removeLast() }
            try object.withUnsafeBufferPointer { try emit($0, true, startLine) }
        }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let room = EntryLimits.maxMessageBytes - object.count
        if bytes.count <= room { object.append(contentsOf: bytes) } else {
            if room > 0 { object.append(contentsOf: bytes[bytes.startIndex..<(bytes.startIndex + room)]) }
            objectTruncated = true
        }
    }

    private mutating func append(newline: Void) {
        if object.count < EntryLimits.maxMessageBytes { object.append(0x0A) } else { objectTruncated = true }
    }
}
