import Foundation
import PackagePlugin

/// Puts the API document people edit, `docs/openapi.json`, into `AccountServer` as the string it
/// serves at `/openapi.json`: one source, no generated copy to commit or keep in step.
@main struct EmbedOpenAPIDocument: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let document = context.package.directoryURL.appending(path: "docs/openapi.json")
        let source = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument.swift")
        return [
            .buildCommand(
                displayName: "Embedding docs/openapi.json in \(target.name)",
                executable: try context.tool(named: "embed-text").url,
                arguments: [document.path, source.path, "OpenAPIDocument", "json"],
                inputFiles: [document],
                outputFiles: [source])
        ]
    }
}
