import ArgumentParser
import StoreInspection

/// `walcheck --format`, in any case.
extension StoreReportFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
