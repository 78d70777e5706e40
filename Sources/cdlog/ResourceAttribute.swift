import ArgumentParser

/// `--resource key=value`: an OpenTelemetry resource attribute stamped on every finding of the run.
struct ResourceAttribute: ExpressibleByArgument {
    var key: String
    var value: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return nil }
        key = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
        guard !key.contains(where: { $0.isWhitespace }) else { return nil }
    }

    var defaultValueDescription: String { "\(key)=\(value)" }
}
