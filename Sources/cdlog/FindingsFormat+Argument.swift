import ArgumentParser
import CDLogKit

/// `cdlog classify --format`, in any case.
extension FindingsFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
