import ArgumentParser
import CDLogCore
import CDLogKit
import CLISupport
import Sysdiagnose

/// `--app`, shared by `classify` and `report`.
struct AppOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("With a sysdiagnose: the app whose reports to read (process name or bundle id; by default the only app with reports).", valueName: "NAME|BUNDLE_ID"))
    var app: String?
}

/// The inputs of a run, sysdiagnoses (a `.tar.gz` or an extracted folder) apart: each is read for the app
/// (`Sysdiagnose.read`), its reports become sources named `ARCHIVE:MEMBER`, and what it says is kept for
/// the report and named on stderr.
struct SysdiagnoseInputs {
    var readings: [Sysdiagnose.Reading] = []
    /// The paths that are not sysdiagnoses, in the order given.
    var otherPaths: [String] = []
    /// The sysdiagnose paths, which `--output` must not replace or write into.
    var sysdiagnosePaths: [String] = []

    var sources: [MemoryByteSource] { readings.flatMap(\.sources) }
    var facts: [SysdiagnoseFacts] { readings.map(\.facts) }

    static func take(_ paths: [String], app: String?) throws -> SysdiagnoseInputs {
        var inputs = SysdiagnoseInputs()
        for path in paths {
            if Sysdiagnose.recognises(path) {
                inputs.sysdiagnosePaths.append(path)
                inputs.readings.append(try Sysdiagnose.read(path, app: app))
            } else {
                inputs.otherPaths.append(path)
            }
        }
        if app != nil && inputs.readings.isEmpty {
            throw ToolFailure("--app picks an app's reports in a sysdiagnose, and no input is one (a .tar.gz or an extracted sysdiagnose folder)")
        }
        return inputs
    }

    /// What each sysdiagnose held, on stderr: the app's reports, what was skipped, and what to run to read
    /// its unified log.
    func printNotes() {
        for facts in facts {
            let name = facts.path
            let device = [facts.productName.map { $0 + " " + (facts.productVersion ?? "") }, facts.productBuild.map { "(\($0))" },
                          facts.deviceModel ?? facts.deviceClass].compactMap { $0 }.joined(separator: " ")
            var line = "cdlog: note: \(name): sysdiagnose" + (device.isEmpty ? "" : " of \(device)") + (facts.captured.map { ", taken \($0)" } ?? "")
            if let app = facts.app {
                line += "; \(facts.reports.count) report\(facts.reports.count == 1 ? "" : "s") of \(app)" + (facts.appChoice.map { " (\($0))" } ?? "")
            } else {
                line += "; no app has crash or resource reports in it"
            }
            if facts.otherReports > 0 { line += "; \(facts.otherReports) other report\(facts.otherReports == 1 ? "" : "s") not read" }
            if facts.reports.isEmpty, !facts.otherApps.isEmpty { line += " (apps with reports: \(facts.otherApps.joined(separator: ", ")))" }
            printError(line)
            for skipped in facts.skipped.prefix(10) { printError("cdlog: note: \(name): skipped \(skipped.member): \(skipped.reason)") }
            if facts.skipped.count > 10 { printError("cdlog: note: \(name): skipped \(facts.skipped.count - 10) more members") }
            if let log = facts.logArchive, let commands = facts.nextCommands {
                printError("cdlog: note: \(name): its unified log (\(log.files) tracev3 files, \(ByteCount.text(log.bytes))) is not decoded here; on a Mac, its Core Data / CloudKit lines around the crash come out with:")
                for command in commands { printError("  " + command) }
            } else if facts.logArchive == nil {
                printError("cdlog: note: \(name): no system_logs.logarchive in it (a sysdiagnose taken without logs, or a partial copy)")
            }
        }
    }
}
