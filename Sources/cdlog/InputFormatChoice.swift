import ArgumentParser
import CDLogKit

/// `--input-format`: `auto` (detect each source's format) or one format every source is read as.
enum InputFormatChoice: ExpressibleByArgument, Equatable {
    case auto
    case forced(InputFormat)

    init?(argument: String) {
        let name = argument.lowercased()
        if name == "auto" { self = .auto; return }
        guard let format = InputFormat(rawValue: name) else { return nil }
        self = .forced(format)
    }

    /// The format to force, or nil to detect.
    var forcedFormat: InputFormat? {
        if case .forced(let format) = self { return format }
        return nil
    }

    var defaultValueDescription: String { "auto" }
    static var allValueStrings: [String] { ["auto"] + InputFormat.allCases.map(\.rawValue) }
}
