import AccountBackendKit
import AccountCore
import AccountJSON
import AccountSettings
import ArgumentParser

/// List the backends compiled in.
struct BackendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backends", abstract: "List the storage backends this build has.")

    @OptionGroup var options: StorelessOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let registry = context.backends
            var lines: [String] = []
            var items: [JSONValue] = []
            for backend in registry.descriptors {
                let selected = backend.name == context.settings.backend.name
                lines.append(
                    context.messages.backendLine(
                        selected: selected, name: backend.name, summary: backend.summary(in: context.language)))
                let store: (String, JSONValue) =
                    switch backend.storeLocation {
                    case .file(let name): ("default_store_file", .string(name))
                    case .named(let key, let name): ("default_\(key)", .string(name))
                    }
                items.append(
                    .object([
                        ("name", .string(backend.name)), ("selected", .bool(selected)),
                        ("default", .bool(backend.name == registry.defaultBackendName)),
                        ("format_version", .int(Int64(backend.formatVersion))),
                        ("store_key", .string(backend.storeKey)), store,
                        ("summary", .string(backend.summary)),
                        ("capabilities", .array(backend.capabilities.names.map(JSONValue.string))),
                    ]))
            }
            return CommandReply(lines: lines, fields: [("backends", .array(items))])
        }
    }
}
