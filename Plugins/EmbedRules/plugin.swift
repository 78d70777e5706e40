import Foundation
import PackagePlugin

/// Embeds every `Rules/*.yaml` file of the package into the target as generated Swift source.
/// The files are declared as inputs, so editing a rule file rebuilds the binary.
@main
struct EmbedRules: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let rulesDirectory = context.package.directoryURL.appending(path: "Rules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: rulesDirectory.path)) ?? []
        let ruleFiles = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            .map { rulesDirectory.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedRuleFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(ruleFiles.count) rule files",
                executable: try context.tool(named: "RuleEmbedder").url,
                arguments: [output.path] + ruleFiles.map(\.path),
                inputFiles: ruleFiles,
                outputFiles: [output]
            )
        ]
    }
}
