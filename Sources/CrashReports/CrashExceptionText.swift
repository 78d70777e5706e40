import CDLogCore
import Foundation

/// Finds the uncaught-exception name and reason in `Application Specific Information`/`asi` text:
/// `*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: '…'`.
enum CrashExceptionText {
    static func extract(from lines: [String], into report: inout CrashReport) {
        for line in lines {
            guard let range = line.range(of: "uncaught exception '") else { continue }
            let rest = line[range.upperBound...]
            guard let close = rest.firstIndex(of: "'") else { continue }
            if report.exceptionName == nil { report.exceptionName = String(rest[..<close]) }
            if report.exceptionReason == nil, let reasonRange = rest.range(of: "reason: '") {
                var reason = rest[reasonRange.upperBound...]
                if reason.hasSuffix("'") { reason = reason.dropLast() }
                report.exceptionReason = String(reason)
            }
            return
        }
    }

}
