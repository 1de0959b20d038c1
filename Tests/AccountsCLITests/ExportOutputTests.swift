import AccountTestSupport
import Foundation
import Testing

/// Where `export --output` writes: a regular file is replaced atomically, a pipe or device is
/// written through (never replaced by a file of password hashes), a folder is refused.
@Suite("Export output")
struct ExportOutputTests {
    @Test("a pipe as --output is written through and stays a pipe")
    func pipeOutput() async throws {
        let cli = try await OperatorOutputTests.withOneUser("export-pipe")
        let pipe = try NamedPipe(cli.root + "/export.fifo")
        let result = try await cli.run(["export", "--output", pipe.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(pipe.isStillAPipe, "the FIFO was replaced by a regular file")
        let lines = pipe.readAvailable().split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "header, user, trailer: \(lines.count) lines")
        #expect(lines.first?.hasPrefix(#"{"format":"accountstore-export""#) == true)
        #expect(lines.last?.hasPrefix(#"{"type":"end","users":1"#) == true)
        #expect(!FileManager.default.fileExists(atPath: pipe.path + ".partial"))
    }

    @Test("--output - is standard output, as --input - is standard input: no file named -")
    func dashIsStandardOutput() async throws {
        let cli = try await OperatorOutputTests.withOneUser("export-dash")
        let result = try await cli.run(["export", "--output", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines.first?.hasPrefix(#"{"format":"accountstore-export""#) == true)
        #expect(result.stderr.contains("Exported 1"), "the summary beside the data: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/-"), "a file named - was written where it ran")
    }

    @Test("an export through a symbolic link replaces the file the link names, and keeps the link")
    func linkedOutput() async throws {
        let cli = try await OperatorOutputTests.withOneUser("export-link")
        try FileManager.default.createDirectory(atPath: cli.root + "/backups", withIntermediateDirectories: true)
        let dated = cli.root + "/backups/2026-11-28.jsonl"
        try "yesterday's export\n".write(toFile: dated, atomically: true, encoding: .utf8)
        let latest = cli.root + "/latest.jsonl"
        try FileManager.default.createSymbolicLink(atPath: latest, withDestinationPath: "backups/2026-11-28.jsonl")
        let result = try await cli.run(["export", "--output", latest])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: latest) == "backups/2026-11-28.jsonl")
        #expect(try String(contentsOfFile: dated, encoding: .utf8).hasPrefix(#"{"format":"accountstore-export""#))
    }

    @Test("a folder as --output is a usage error naming a file to give, and leaves nothing")
    func folderOutput() async throws {
        let cli = try await OperatorOutputTests.withOneUser("export-into-folder")
        let folder = cli.root + "/backups"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try await cli.run(["export", "--output", folder])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "error: \(folder) is a folder: name the export file (say \(folder)/accounts.jsonl); nothing was exported.\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder + ".partial"))
    }

    @Test("an export that cannot be written says the old file was left as it was, or that none was made")
    func failedExport() async throws {
        let cli = try await OperatorOutputTests.withOneUser("export-blocked")
        let old = cli.root + "/old.jsonl"
        try "yesterday's export\n".write(toFile: old, atomically: true, encoding: .utf8)
        // The temporary file's name is taken by a folder, so creating it fails for every user.
        for path in [old, cli.root + "/new.jsonl"] {
            try FileManager.default.createDirectory(atPath: path + ".partial", withIntermediateDirectories: true)
        }
        let kept = try await cli.run(["export", "--output", old])
        #expect(kept.status == 7)
        #expect(kept.stderr.hasSuffix("; \(old) was left as it was\n"), "\(kept.stderr)")
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "yesterday's export\n")
        let none = try await cli.run(["export", "--output", cli.root + "/new.jsonl", "--lang", "ko"])
        #expect(none.status == 7)
        #expect(none.stderr.hasSuffix("; \(cli.root)/new.jsonl에 아무것도 만들지 않았습니다\n"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/new.jsonl"))
    }
}
