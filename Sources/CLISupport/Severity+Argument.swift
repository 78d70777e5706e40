import ArgumentParser
import CDLogCore

/// `--fail-on` and `--min-severity` take a severity's name, in any case.
extension Severity: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public var defaultValueDescription: String { name }
    public static var allValueStrings: [String] { allCases.map(\.name) }
    public static var allValueDescriptions: [String: String] { [:] }
}
