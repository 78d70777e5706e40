import Foundation
import PackagePlugin

/// Embeds the package's rule files into the target as generated Swift source.
///
/// - `CDLogKit` gets every classification rule file `Rules/*.yaml` (top level only) as `EmbeddedRuleFiles`.
/// - `CDLogKit` also gets the code tables `Rules/tables/*.yaml` as `EmbeddedCodeTables`.
/// - `ReportKit` gets every correlation (diagnosis) rule file `Rules/diagnoses/*.yaml` as
///   `EmbeddedDiagnosisFiles`, so classification rule loading never sees a diagnosis file.
/// The files are declared as inputs, so editing a rule file rebuilds the binary.
@main
struct EmbedRules: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let isReport = target.name == "ReportKit"
        var directory = context.package.directoryURL.appending(path: "Rules")
        if isReport { directory = directory.appending(path: "diagnoses") }
        let enumName = isReport ? "EmbeddedDiagnosisFiles" : "EmbeddedRuleFiles"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let ruleFiles = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { directory.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(enumName).swift")
        var commands: [Command] = []
        if !isReport {
            let tables = directory.appending(path: "tables")
            let tableFiles = ((try? FileManager.default.contentsOfDirectory(atPath: tables.path)) ?? [])
                .filter { $0.hasSuffix(".yaml") }.sorted().map { tables.appending(path: $0) }
            let tableOutput = context.pluginWorkDirectoryURL.appending(path: "EmbeddedCodeTables.swift")
            commands.append(.buildCommand(
                displayName: "Embedding \(tableFiles.count) code tables",
                executable: try context.tool(named: "RuleEmbedder").url,
                arguments: ["--enum", "EmbeddedCodeTables", tableOutput.path] + tableFiles.map(\.path),
                inputFiles: tableFiles,
                outputFiles: [tableOutput]
            ))
        }
        return commands + [
            .buildCommand(
                displayName: "Embedding \(ruleFiles.count) \(isReport ? "diagnosis" : "rule") files",
                executable: try context.tool(named: "RuleEmbedder").url,
                arguments: ["--enum", enumName, output.path] + ruleFiles.map(\.path),
                inputFiles: ruleFiles,
                outputFiles: [output]
            )
        ]
    }
}
