import Foundation
import PackagePlugin

/// Puts the commit this package was built from into `AccountsCLI`, so that `accounts --version`
/// tells a development build (`0.3.0-dev+1a2b3c4`) from a release and from another build. The
/// commit is read from `.git` as files (a plugin cannot run `git`); without a `.git` folder (a
/// source archive) it is empty and the version says only `-dev`.
@main struct EmbedBuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let commit = Self.commit(in: context.package.directoryURL).map { String($0.prefix(12)) } ?? ""
        // The plugin runs at every build; the file changes only when the commit does, so the
        // module is rebuilt only then.
        let file = context.pluginWorkDirectoryURL.appending(path: "commit.txt")
        if (try? String(contentsOf: file, encoding: .utf8)) != commit + "\n" {
            try Data((commit + "\n").utf8).write(to: file, options: .atomic)
        }
        let source = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        return [
            .buildCommand(
                displayName: "Embedding the commit in \(target.name)",
                executable: try context.tool(named: "embed-text").url,
                arguments: [file.path, source.path, "BuildCommit", "hash"],
                inputFiles: [file],
                outputFiles: [source])
        ]
    }

    /// The commit `HEAD` names: directly, or through a branch's file or `packed-refs`.
    static func commit(in package: URL) -> String? {
        let git = package.appending(path: ".git")
        guard let head = read(git.appending(path: "HEAD")) else { return nil }
        guard head.hasPrefix("ref: ") else { return isCommit(head) ? head : nil }
        let reference = String(head.dropFirst("ref: ".count))
        if let loose = read(git.appending(path: reference)), isCommit(loose) { return loose }
        let packed = read(git.appending(path: "packed-refs")) ?? ""
        for line in packed.split(separator: "\n") where line.hasSuffix(" " + reference) {
            let hash = String(line.prefix { $0 != " " })
            if isCommit(hash) { return hash }
        }
        return nil
    }

    private static func read(_ url: URL) -> String? {
        (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isCommit(_ text: String) -> Bool {
        text.count >= 40 && text.allSatisfy { $0.isHexDigit }
    }
}
