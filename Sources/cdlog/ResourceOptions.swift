import ArgumentParser

/// `--resource key=value` (repeatable), shared by `classify` and `report`: resource attributes for
/// `--format otlp`, such as a ticket id (`cdlog.ticket=T-123`), a hashed user id (`enduser.id=…`) or the app
/// version when the inputs do not say it (`service.version=4.2`).
struct ResourceOptions: ParsableArguments {
    @Option(name: .customLong("resource"), help: ArgumentHelp("With --format otlp: a resource attribute for every finding (ticket id, hashed user id, app version); repeatable. Replaces the same key read from the inputs.", valueName: "KEY=VALUE"))
    var attributes: [ResourceAttribute] = []

    var pairs: [(key: String, value: String)] { attributes.map { ($0.key, $0.value) } }

    /// Fails when attributes are given for a format that has no place for them.
    func requireOTLP(_ isOTLP: Bool) throws {
        if !attributes.isEmpty && !isOTLP { throw ValidationError("--resource needs --format otlp") }
    }
}
