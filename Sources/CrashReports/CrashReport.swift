import CDLogCore
import Foundation

/// The format-independent content of one crash (or MetricKit diagnostic) report, filled by the
/// `.ips`, legacy-text and MetricKit readers and turned into an `Entry` by `CrashSummary`.
/// Every property is optional: a reader sets what its report states and nothing else.
public struct CrashReport {
    public enum Format: String {
        case ips, crash, metrickit
    }

    public var format: Format
    public var appName: String?
    public var bundleID: String?
    public var appVersion: String?
    public var build: String?
    public var osVersion: String?
    public var device: String?
    public var incidentID: String?
    /// As the report prints it; normalised to ISO 8601 by `CrashSummary`.
    public var timestamp: String?

    public var exceptionType: String?
    public var signal: String?
    public var exceptionSubtype: String?
    public var exceptionMessage: String?
    public var exceptionCodes: String?
    /// Uncaught language exception (`NSInternalInconsistencyException`) and its reason, when stated.
    public var exceptionName: String?
    public var exceptionReason: String?
    /// `Application Specific Information` / `asi` lines.
    public var applicationSpecific: [String] = []

    public var terminationNamespace: String?
    /// Numeric termination code as given (hex or decimal) — normalised by `CrashTermination`.
    public var terminationCodeValue: UInt64?
    /// Every termination text the report carries (reason, description, RBS context lines), joined by "\n".
    public var terminationText: String?

    /// MetricKit diagnostic kind (crash, hang, cpuException, diskWriteException, appLaunch), `hang` for a
    /// hang report, `stackshot` for a stackshot.
    public var diagnosticType: String?
    /// A stackshot's trigger (`reason`), its code (`exception`: `0xbaaaaaad` when someone asked for it)
    /// and what it says of the frontmost process's main thread.
    public var stackshotReason: String?
    public var stackshotCode: String?
    public var stackshotLines: [String] = []
    public var hangDuration: Double?
    public var launchDuration: Double?
    public var totalCPUTime: Double?
    public var totalSampledTime: Double?
    public var writesCaused: String?

    public var threads: [CrashThread] = []
    /// A resource report (`MicrostackshotReader`): its one thread is the heaviest stack the samples found,
    /// not a thread that crashed, and there is no main thread.
    public var isResourceReport = false
    /// The crashed thread's number as the report states it (`Crashed Thread: 4`, `faultingThread`), kept
    /// when the thread's own section is missing (a cut report), so `faultingThread` can still be named.
    public var statedCrashedThread: Int?
    /// A resource report's `Event:` (`cpu usage`, `disk writes`, `wakeups`).
    public var resourceEvent: String?
    /// Index into `threads` of the thread the report says crashed / was attributed.
    public var faultingThread: Int?
    public var lastExceptionBacktrace: [CrashFrame] = []

    /// What could not be read (for `partial`).
    public var missing: [String] = []
    /// 1-based lines of the document this report spans.
    public var firstLine = 1
    public var lastLine = 1

    init(format: Format) {
        self.format = format
    }
}

public struct CrashThread {
    public var number: Int
    public var name: String?
    public var queue: String?
    public var crashed = false
    public var frames: [CrashFrame] = []

    public var isMain: Bool {
        queue == "com.apple.main-thread" || name == "com.apple.main-thread"
    }
}

/// One stack frame: the image (binary) name, and the symbol when the report is symbolicated.
public struct CrashFrame {
    public var image: String?
    public var symbol: String?
    /// Offset into the image (unsymbolicated frames are shown as `image + offset`).
    public var offset: UInt64?

    /// `image  symbol`, or `image + offset` when there is no symbol.
    public var display: String {
        let imageName = image ?? "???"
        if let symbol, !symbol.isEmpty { return "\(imageName)  \(symbol)" }
        if let offset { return "\(imageName) + \(offset)" }
        return imageName
    }

    public var isSymbolicated: Bool { symbol.map { !$0.isEmpty } ?? false }
}

/// Small text helpers shared by the crash readers (no regular expressions: reports can be large
/// and these run on every line).
public enum CrashText {
    /// `0x…` hexadecimal or decimal; nil otherwise.
    public static func parseInteger(_ text: some StringProtocol) -> UInt64? {
        let trimmed = trim(text)
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16)
        }
        return UInt64(trimmed)
    }

    /// The text without leading and trailing spaces, tabs and line breaks.
    public static func trim(_ text: some StringProtocol) -> Substring {
        var result = Substring(text)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }

    /// Lower-case `0x…` hex form of a code.
    public static func hex(_ value: UInt64) -> String {
        "0x" + String(value, radix: 16)
    }

    /// The first decimal number (with optional fraction) at or after `marker` in `text`.
    public static func number(after marker: String, in text: String) -> Double? {
        guard let range = text.range(of: marker) else { return nil }
        return leadingNumber(text[range.upperBound...])
    }

    public static func leadingNumber(_ text: Substring) -> Double? {
        var digits = ""
        var started = false
        for character in text {
            if character.isASCII, character.isNumber || (character == "." && started) {
                digits.append(character)
                started = true
            } else if character == "," && started {
                continue  // "2,000"
            } else if started || !(character == " " || character == "\t" || character == "(") {
                break
            }
        }
        return Double(digits)
    }

    /// The word (letters, digits, `-`, `_`) right after `marker`.
    public static func word(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let rest = text[range.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
        let word = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        return word.isEmpty ? nil : String(word)
    }

    /// Seconds from MetricKit duration strings: "20 secs", "2.5 sec", "20000 ms", "1 min".
    public static func seconds(_ text: String) -> Double? {
        guard let value = leadingNumber(Substring(text)) else { return nil }
        let lower = text.lowercased()
        if lower.contains("ms") { return value / 1000 }
        if lower.contains("min") { return value * 60 }
        if lower.contains("hour") || lower.hasSuffix(" h") { return value * 3600 }
        return value
    }

    /// Formats seconds without trailing zeros: 19.97, 20, 0.13.
    public static func formatSeconds(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        let scaled = (value * 1000).rounded()
        let magnitude = Int64(min(abs(scaled), 9e15))
        var fractionText = String(magnitude % 1000)
        while fractionText.count < 3 { fractionText = "0" + fractionText }
        var text = (scaled < 0 ? "-" : "") + String(magnitude / 1000) + "." + fractionText
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

