/// The OpenTelemetry resource a finding belongs to: the app and device its input says it came from.
///
/// Keys follow OpenTelemetry's semantic conventions where one exists (`service.name`, `service.version`,
/// `os.name`, `os.version`, `device.model.identifier`) and are cdlog's own otherwise (`cdlog.app.build`,
/// `cdlog.app.bundle_id`). A log entry names only its process (`service.name`); a crash report names the
/// app, its version and build, the OS and the device. `extra` (`--resource key=value`, in order) is added
/// last and replaces a key the input gave.
public enum OTLPResource {
    public static func attributes(of entry: Entry, extra: [(key: String, value: String)]) -> [(key: String, value: String)] {
        func preset(_ name: String) -> String? {
            entry.presetFields.first(where: { $0.name == name }).map(\.value).flatMap { $0.isEmpty ? nil : $0 }
        }
        var found: [(key: String, value: String)] = []
        func add(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { found.append((key, value)) }
        }
        add("service.name", preset("appName") ?? entry.process)
        add("service.version", preset("appVersion"))
        add("cdlog.app.build", preset("build"))
        add("cdlog.app.bundle_id", preset("bundleID"))
        if let os = preset("osVersion") {
            let (name, version) = splitOS(os)
            add("os.name", name)
            add("os.version", version)
        }
        add("device.model.identifier", preset("device"))
        let overridden = Set(extra.map(\.key))
        return found.filter { !overridden.contains($0.key) } + extra
    }

    /// "iPhone OS 17.5.1 (21F90)" → ("iOS", "17.5.1 (21F90)"); "macOS 14.4 (23E214)" → ("macOS", "14.4 (23E214)");
    /// text with no version number → (text, nil).
    static func splitOS(_ text: String) -> (name: String?, version: String?) {
        let words = text.split(separator: " ")
        guard let index = words.firstIndex(where: { $0.first?.isNumber == true }) else { return (text, nil) }
        var name = words[..<index].joined(separator: " ")
        if name == "iPhone OS" { name = "iOS" }
        if name == "Mac OS X" { name = "macOS" }
        return (name.isEmpty ? nil : name, words[index...].joined(separator: " "))
    }
}
