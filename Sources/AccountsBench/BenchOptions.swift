import Foundation

/// accounts-bench's arguments.
struct BenchOptions {
    var command = ""
    /// `--backend`; `nil` means the configured (or default) one.
    var backend: String?
    var mode: String?
    var n = 10_000
    static let workloadPhases: Set<String> = ["A", "B", "C", "D", "E"]
    /// Phases run only when asked for: T, the last tenth of A's sign-ups on their own.
    static let optionalPhases: Set<String> = ["T"]
    var phases = workloadPhases
    var iterations = 41
    /// `hash --threads N`: N threads hashing at once, `iterations` each (the machine's own
    /// ceiling for concurrent hashing, which a server's login rate is bounded by).
    var threads = 1
    /// Argon2id passes and memory; `nil` means the configured ones (`hashing.*`).
    var opsLimit: Int?
    var memLimitKiB: Int?
    var configFile: String?
    var json = false
    /// The port of `serve-baseline` and `serve-raw-postgres` (0: any free one, printed).
    var port = 0

    static let usage = """
        usage: accounts-bench workload [--backend NAME] [--mode MODE] [-n N] [--phases ABCDET|hash] [--config FILE] [--json]
               accounts-bench hash [--ops T] [--mem-kib M] [--iterations N] [--threads K] [--config FILE] [--json]
               accounts-bench login-timing [--backend NAME] [--iterations N] [--json]
               accounts-bench serve-baseline [--port P]   (a bare Hummingbird route, for bench/serve.sh)
               accounts-bench serve-raw-postgres [--port P]   (GET /v1/me with Hummingbird and postgres-nio
                                                              alone, over the ACCOUNTS_POSTGRES_* store)
        MODE: a value of the backend's sync or synchronous setting (sqlite full|normal, lmdb full|nometasync|none)
        PHASES: A sign-up, B lookup, C duplicate, D withdraw, E bulk import (the default: ABCDE);
        T the last tenth of A's sign-ups on its own, for stores whose writes grow with their size
        Settings: built-in defaults and ACCOUNTS_* variables, or --config FILE (as `accounts --config`);
        a config file found only by its default location is not read, so that runs compare. The
        stores are always scratch ones (a temporary folder; on PostgreSQL, scratch schemas that
        are dropped afterwards), never the configured store.
        """

    init(_ arguments: [String]) {
        var rest = arguments[...]
        if rest.contains(where: { ["--help", "-h", "help"].contains($0) }) {
            // Asked for: usage on standard output, success.
            print(Self.usage)
            exit(0)
        }
        command = rest.popFirst() ?? ""
        func value(_ name: String) -> String {
            guard let next = rest.popFirst() else { Self.fail("\(name) needs a value") }
            return next
        }
        func count(_ name: String) -> Int {
            let text = value(name)
            guard let number = Int(text), number > 0 else {
                Self.fail("\(name) needs a positive whole number, not '\(text)'")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--backend": backend = value(argument)
            case "--mode": mode = value(argument)
            case "-n": n = count(argument)
            case "--phases", "--phase":
                let list = value(argument)
                phases = list == "hash" ? ["hash"] : Set(list.map(String.init))
                guard phases == ["hash"] || phases.isSubset(of: Self.workloadPhases.union(Self.optionalPhases)) else {
                    Self.fail("\(argument) takes letters of ABCDET, or hash; not '\(list)'")
                }
            case "--iterations": iterations = count(argument)
            case "--threads": threads = count(argument)
            case "--ops": opsLimit = count(argument)
            case "--mem-kib": memLimitKiB = count(argument)
            case "--config": configFile = value(argument)
            case "--json": json = true
            case "--port": port = Int(value(argument)) ?? 0
            default: Self.fail("unknown argument \(argument)\n\(Self.usage)")
            }
        }
    }

    /// A mistake in the arguments found after the scratch folder exists (thrown, so that the
    /// folder is removed before exiting).
    struct UsageError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("accounts-bench: \(message)\n".utf8))
        exit(2)
    }
}
