import AccountCore
import Yams

/// Reads a config file's key structure (not its values) so that unknown keys and misplaced
/// sections are reported by name before any value is used.
enum ConfigFileKeys {
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
