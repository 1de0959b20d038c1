import AccountCore
import AccountOperations
import ArgumentParser
import FileSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Write the store as versioned JSON Lines.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export every account as versioned JSON Lines (with password hashes).",
        discussion: """
            The file holds password hashes: it is created with mode 0600 and should be kept like the store. \
            Without --output the lines go to standard output and the summary to standard error.
            """)

    @Option(help: "Write to this file (atomically: a failed export leaves no file).", completion: .file())
    var output: String?
    @Flag(name: .customLong("with-sessions"), help: "Include sessions (their token digests), so users stay signed in.")
    var withSessions = false
    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let summary = try await context.withAdministration { administration in
                let progress = ProgressLine(
                    .exported, total: try await administration.userCount(), messages: context.messages,
                    json: options.base.json)
                defer { progress.finish() }
                if let output {
                    let sink = try LineFile(path: output)
                    let summary = try await administration.export(
                        sourceBackend: context.settings.backendName, withSessions: withSessions,
                        progress: progress.update, write: sink.write)
                    try sink.commit()
                    return summary
                }
                return try await administration.export(
                    sourceBackend: context.settings.backendName, withSessions: withSessions,
                    progress: progress.update, write: { Swift.print($0) })
            }
            let line = context.messages.exported(users: summary.users, sessions: summary.sessions)
            let fields: [(String, JSONValue)] = [
                ("users", .int(Int64(summary.users))), ("sessions", .int(Int64(summary.sessions))),
                ("sha256", .string(summary.digest)),
            ]
            guard output != nil else {
                // Standard output carries the data; the summary goes beside it.
                var standardError = StandardError()
                Swift.print(
                    options.base.json ? JSONValue.object([("ok", .bool(true))] + fields).serialized() : line,
                    to: &standardError)
                return CommandReply(lines: [], fields: [], suppressJSON: true)
            }
            return CommandReply(lines: [line], fields: fields)
        }
    }
}

/// A file written line by line into a private temporary file, renamed into place on commit.
final class LineFile {
    private let path: String
    private let temporary: String
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    init(path: String) throws {
        var folder = Glibc.stat()
        let directory = StoreFile.directory(of: path)
        guard stat(directory, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR else {
            throw UsageProblem(
                english: "The folder \(directory) for \(path) does not exist; nothing was exported.",
                korean: "\(path)를 둘 폴더 \(directory)가 없습니다. 아무것도 내보내지 않았습니다.")
        }
        self.path = path
        temporary = path + ".partial"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure.error("create", path: temporary) }
    }

    deinit {
        close(descriptor)
        unlink(temporary)
    }

    func write(_ line: String) throws {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { try flush() }
    }

    func commit() throws {
        try flush()
        guard fsync(descriptor) == 0 else { throw POSIXFailure.error("fsync", path: temporary) }
        guard rename(temporary, path) == 0 else { throw POSIXFailure.error("rename", path: temporary) }
        try StoreFile.syncDirectory(of: path)
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure.error("write", path: temporary)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
