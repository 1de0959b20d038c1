import BackendRegistry
import Foundation

/// accounts-bench's arguments.
struct BenchOptions {
    var command = ""
    var backend = BackendRegistry.defaultBackendName
    var mode: String?
    var n = 10_000
    var phases: Set<String> = ["A", "B", "C", "D", "E"]
    var iterations = 41
    var opsLimit = 2
    var memLimitKiB = 19_456
    var json = false

    static let usage = """
        usage: accounts-bench workload [--backend NAME] [--mode MODE] [-n N] [--phases ABCDE] [--json]
               accounts-bench hash [--ops T] [--mem-kib M] [--iterations N] [--json]
               accounts-bench login-timing [--backend NAME] [--iterations N] [--json]
        MODE: sqlite full|normal, lmdb full|nometasync|none (the backend's durability setting)
        """

    init(_ arguments: [String]) {
        var rest = arguments[...]
        command = rest.popFirst() ?? ""
        func value(_ name: String) -> String {
            guard let next = rest.popFirst() else { Self.fail("\(name) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--backend": backend = value(argument)
            case "--mode": mode = value(argument)
            case "-n": n = Int(value(argument)) ?? n
            case "--phases": phases = Set(value(argument).map(String.init))
            case "--iterations": iterations = Int(value(argument)) ?? iterations
            case "--ops": opsLimit = Int(value(argument)) ?? opsLimit
            case "--mem-kib": memLimitKiB = Int(value(argument)) ?? memLimitKiB
            case "--json": json = true
            default: Self.fail("unknown argument \(argument)\n\(Self.usage)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("accounts-bench: \(message)\n".utf8))
        exit(2)
    }
}
