import AccountCore
import Yams

/// Reads a config file's key structure (not its values) so that unknown keys and misplaced
/// sections are reported by name before any value is used.
enum ConfigFileKeys {
    /// Whether the text holds no YAML document at all (empty, or only comments and blanks): a
    /// valid, empty config.
    static func isEmptyDocument(_ text: String) throws(AccountError) -> Bool {
        do {
            return try Yams.compose(yaml: text) == nil
        } catch {
            return false
        }
    }

    /// The dotted names of the leaf keys whose values YAML reads as a number or a boolean
    /// (`path: 5`): refused for settings that take text, where they would pass as "5".
    static func nonTextKeys(inYAML text: String) -> Set<String> {
        guard let node = try? Yams.compose(yaml: text), case .mapping(let mapping) = node else { return [] }
        var found: Set<String> = []
        func walk(_ mapping: Node.Mapping, _ prefix: String) {
            for (keyNode, value) in mapping {
                guard let key = keyNode.string else { continue }
                let name = prefix.isEmpty ? key : "\(prefix).\(key)"
                switch value {
                case .mapping(let inner): walk(inner, name)
                case .scalar(let scalar) where scalar.style == .plain:
                    // Plain scalars carry no tag until resolved: resolve as YAML 1.1 does.
                    if [Tag.Name.int, .float, .bool].contains(Resolver.default.resolveTag(of: value)) {
                        found.insert(name)
                    }
                default: break
                }
            }
        }
        walk(mapping, "")
        return found
    }

    /// The dotted names of every leaf key in the YAML file, or an error naming what is wrong.
    static func leafKeys(inYAML text: String, file: String) throws(AccountError) -> [String] {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw .configInvalid(key: file, reason: "not valid YAML: \(error)")
        }
        guard let node else { return [] }
        guard case .mapping(let mapping) = node else {
            throw .configInvalid(key: file, reason: "the top level must be a mapping of keys to values")
        }
        var keys: [String] = []
        try collect(mapping, prefix: "", into: &keys)
        return keys
    }

    private static func collect(_ mapping: Node.Mapping, prefix: String, into keys: inout [String]) throws(AccountError)
    {
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else {
                throw .configInvalid(key: prefix.isEmpty ? "(top level)" : prefix, reason: "keys must be text")
            }
            let name = prefix.isEmpty ? key : "\(prefix).\(key)"
            switch value {
            case .mapping(let inner):
                try collect(inner, prefix: name, into: &keys)
            case .scalar(let scalar)
            where scalar.tag.description == Tag.Name.null.rawValue || scalar.string.isEmpty && prefix.isEmpty:
                // An empty section (`json:` with nothing under it) sets nothing.
                continue
            case .sequence:
                throw .configInvalid(key: name, reason: "expected a single value, found a list")
            default:
                keys.append(name)
            }
        }
    }
}
