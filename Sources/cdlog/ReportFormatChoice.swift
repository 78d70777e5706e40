import ArgumentParser
import ReportKit

/// `cdlog report --format`: a document (`markdown`, `html`, `json`), or `otlp`: every finding as
/// OpenTelemetry log records, streamed as the inputs are read, then the diagnoses.
enum ReportFormatChoice: ExpressibleByArgument, Equatable {
    case document(ReportOutputFormat)
    case otlp

    init?(argument: String) {
        let name = argument.lowercased()
        if name == "otlp" { self = .otlp; return }
        guard let format = ReportOutputFormat(rawValue: name) else { return nil }
        self = .document(format)
    }

    var defaultValueDescription: String {
        switch self {
        case .document(let format): return format.rawValue
        case .otlp: return "otlp"
        }
    }

    static var allValueStrings: [String] { ReportOutputFormat.allCases.map(\.rawValue) + ["otlp"] }
}
