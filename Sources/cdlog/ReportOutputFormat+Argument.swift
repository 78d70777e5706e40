import ArgumentParser
import ReportKit

/// `cdlog report --format`, in any case.
extension ReportOutputFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
