import ArgumentParser
import CSQLiteCount

/// `accounts whoami`'s options, declared the same way (an option group in an option group).
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "A YAML settings file.") var config: String?
    @Option(name: .long, help: "The backend.") var backend: String?
    @Flag(name: .long, help: "Print JSON.") var json = false
    @Option(name: .long, help: "ko or en.") var lang: String?
}

struct SessionOptions: ParsableArguments {
    @OptionGroup var base: StoreOptions
    @Option(name: .long, help: "The SQLite store.") var store: String
    @Option(name: .customLong("session-file"), help: "Not read.") var sessionFile: String?
}

/// `count --store FILE`: what `sqlite3 FILE 'select count(*) from users'` prints.
struct Count: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Count the users of a SQLite store.")

    @OptionGroup var options: SessionOptions

    func run() throws {
        var database: OpaquePointer?
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_open_v2(options.store, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
            sqlite3_prepare_v2(database, "select count(*) from users", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { throw ExitCode(7) }
        print(sqlite3_column_int64(statement, 0))
    }
}

struct Root: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "argument-parser-count", version: "1.0", subcommands: [Count.self])
}

Root.main()
