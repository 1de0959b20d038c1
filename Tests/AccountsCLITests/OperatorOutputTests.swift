import AccountTestSupport
import BackendTestSupport
import Foundation
import Testing

/// What operators read: codes of their own, dates as dates, plurals, clear refusals.
@Suite("Operator output")
struct OperatorOutputTests {
    static let password = "Tangerine-Kayak-42"

    static func withOneUser(_ name: String) async throws -> CLIRunner {
        let cli = try CLIRunner(name)
        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"],
            stdin: [password, password])
        #expect(signup.status == 0, "\(signup.stderr)")
        return cli
    }

    @Test("users show of a missing email is account_not_found with exit 9")
    func missingAccount() async throws {
        let cli = try await Self.withOneUser("missing-account")
        let result = try await cli.run(["users", "show", "nobody77@example.com", "--json"])
        #expect(result.status == 9)
        #expect(result.stdout.contains("\"account_not_found\""), "\(result.stdout)")
    }

    @Test("users block ends the sessions and refuses the right password; unblock and verify say what changed")
    func blockUnblockVerify() async throws {
        let cli = try await Self.withOneUser("block-unblock")
        let blocked = try await cli.run(["users", "block", "LEESOON7@example.com", "--json"])
        #expect(blocked.status == 0, "\(blocked.stderr)")
        #expect(try blocked.json()["changed"] as? Bool == true)
        #expect(try blocked.json()["email"] as? String == "leesoon7@example.com")
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 6, "the signed-up session ended: \(whoami.stdout)")
        let again = try await cli.run(["users", "block", "leesoon7@example.com"])
        #expect(again.status == 0 && again.stdout.contains("was blocked already; nothing changed"), "\(again.stdout)")
        let wrong = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin", "--json"], stdin: ["Wrong-Kayak-42"])
        #expect(wrong.errorCode == "invalid_credentials")
        let right = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin", "--json"], stdin: [Self.password])
        #expect(right.status == 5 && right.errorCode == "account_blocked", "\(right.stdout)")
        let shown = try await cli.run(["users", "show", "leesoon7@example.com"])
        #expect(shown.stdout.contains("blocked (cannot sign in)") && shown.stdout.contains("not proven"))
        #expect(try await cli.run(["users", "unblock", "leesoon7@example.com"]).stdout.contains("can sign in again"))
        let login = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin"], stdin: [Self.password])
        #expect(login.status == 0, "\(login.stderr)")
        let verified = try await cli.run(["users", "verify", "leesoon7@example.com", "--json"])
        #expect(try verified.json()["changed"] as? Bool == true)
        let details = try await cli.run(["users", "show", "leesoon7@example.com", "--json"])
        #expect(try details.json()["email_verified_at_ms"] as? Int64 != nil)
        #expect(try details.json()["blocked"] as? Bool == false)
        let missing = try await cli.run(["users", "block", "nobody77@example.com", "--json"])
        #expect(missing.status == 9 && missing.errorCode == "account_not_found", "\(missing.stdout)")
    }

    @Test("users show prints dates in ISO 8601, UTC")
    func isoDates() async throws {
        let cli = try await Self.withOneUser("iso-dates")
        let result = try await cli.run(["users", "show", "leesoon7@example.com"])
        let created = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("Created:") })
        #expect(created.wholeMatch(of: #/Created:\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#) != nil, "\(created)")
    }

    @Test("--limit -1 is refused as out of range")
    func negativeLimit() async throws {
        let cli = try await Self.withOneUser("negative-limit")
        let result = try await cli.run(["users", "list", "--limit", "-1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("out of range"), "\(result.stderr)")
    }

    @Test("a store path that is a device is refused as not a regular file")
    func deviceStore() async throws {
        let cli = try CLIRunner("device-store")
        for backend in ["sqlite", "lmdb", "json"] {
            let result = try await cli.run(["users", "count", "--backend", backend, "--store", "/dev/null"])
            #expect(result.status == 7)
            #expect(result.stderr.contains("not a regular file"), "\(backend): \(result.stderr)")
        }
    }

    @Test("an export into a missing folder names the folder and leaves nothing")
    func exportMissingFolder() async throws {
        let cli = try await Self.withOneUser("export-folder")
        let result = try await cli.run(["export", "--output", cli.root + "/nope/all.jsonl"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("The folder \(cli.root)/nope"), "\(result.stderr)")
    }

    @Test("import --input - reads standard input, as export writes to standard output")
    func importStandardInput() async throws {
        let cli = try await Self.withOneUser("import-stdin")
        let export = try await cli.run(["export"])
        #expect(export.status == 0)
        let lines = export.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let result = try await cli.run(
            ["import", "--input", "-", "--store", cli.root + "/copy.sqlite"], stdin: Array(lines.dropLast()))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Imported 1 user and 0 sessions.\n")
    }

    @Test(
        "a config from a pipe (bash's <(…)) is read once and used, its paths relative to the working directory; one that cannot be read, or never ends, says why"
    )
    func configFromPipe() async throws {
        let cli = try CLIRunner("config-pipe")
        let store = cli.root + "/piped.json"
        // "$0" is accounts; the config names a JSON store, so the sign-up shows where it went. Its
        // path is relative: a pipe has no folder of its own, so it is the working directory's.
        let signup = try await cli.run(
            [
                "-c",
                #"cd "$1" && "$0" signup --config <(printf 'backend: json\njson:\n  path: piped.json\n') "#
                    + "--email leesoon7@example.com --nickname 이순신 --password-stdin",
                CLIRunner.executable, cli.root,
            ],
            stdin: [Self.password, Self.password], executable: "/bin/bash")
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(try await cli.run(["users", "count", "--backend", "json", "--store", store]).stdout == "1\n")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "the default store was not used")
        // verify's multi-process check starts more processes with the same settings: they get a copy.
        let verify = try await cli.run(
            ["-c", #""$0" verify --config <(printf 'backend: json\n')"#, CLIRunner.executable],
            executable: "/bin/bash")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("verify json: ") && !verify.stdout.contains("FAIL"), "\(verify.stdout)")
        let endless = try await cli.run(["whoami", "--config", "/dev/zero"])
        #expect(endless.status == 8)
        #expect(
            endless.stderr
                == "error: Invalid configuration '/dev/zero': the config file is larger than 1 MiB: is it the right file?\n"
        )
        let folder = try await cli.run(["whoami", "--config", cli.root])
        #expect(folder.status == 8)
        #expect(
            folder.stderr
                == "error: Invalid configuration '\(cli.root)': the config file cannot be read: Is a directory\n")
    }

    @Test("import reads a pipe (bash's <(…)) once, and names the pipe or standard input, never a copy")
    func importPipe() async throws {
        let cli = try await Self.withOneUser("import-pipe")
        let file = cli.root + "/all.jsonl"
        #expect(try await cli.run(["export", "--output", file]).status == 0)
        // "$0" is accounts; the pipe can be read only once, and the import reads its input twice.
        let whole = try await cli.run(
            [
                "-c", #""$0" import --input <(cat "$1") --store "$2""#, CLIRunner.executable, file,
                cli.root + "/a.sqlite",
            ],
            executable: "/bin/bash")
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout == "Imported 1 user and 0 sessions.\n")
        #expect(try await cli.run(["users", "count", "--store", cli.root + "/a.sqlite"]).stdout == "1\n")
        let cut = try await cli.run(
            [
                "-c", #""$0" import --input <(head -c 300 "$1") --store "$2""#, CLIRunner.executable, file,
                cli.root + "/b.sqlite",
            ],
            executable: "/bin/bash")
        #expect(cut.status == 3)
        #expect(
            cut.stderr.wholeMatch(
                of:
                    #/error: The export file is invalid: /dev/fd/\d+ line 2: the last line is cut off \(truncated\); nothing was written\n/#
            ) != nil, "\(cut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/b.sqlite"), "no store was made")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let standardInput = try await cli.run(
            ["import", "--input", "-", "--store", cli.root + "/c.sqlite"], stdinBytes: Array(text.utf8.prefix(300)))
        #expect(
            standardInput.stderr
                == "error: The export file is invalid: standard input line 2: the last line is cut off (truncated); nothing was written\n"
        )
        let folder = try await cli.run(["import", "--input", cli.root, "--store", cli.root + "/d.sqlite"])
        #expect(folder.status == 3)
        #expect(
            folder.stderr
                == "error: The export file is invalid: \(cli.root) is a folder, not an export file; nothing was written\n"
        )
    }

    @Test("--version tells a development build from a release; --help says that accounts alone opens the app")
    func versionAndHelp() async throws {
        let cli = try CLIRunner("version-help")
        let version = try await cli.run(["--version"])
        #expect(version.status == 0)
        // A release prints its number alone; any other build the next release's, marked -dev, with
        // the commit when it was built from a clone.
        #expect(version.stdout.wholeMatch(of: #/\d+\.\d+\.\d+(-dev(\+[0-9a-f]{12})?)?\n/#) != nil, "\(version.stdout)")
        let help = try await cli.run(["--help"])
        #expect(help.stdout.contains("Run `accounts` alone on a terminal to open the app"))
        #expect(help.stdout.contains("postgres") && help.stdout.contains("lmdb"), "the overview names every backend")
    }

    @Test("with --lang ko, doctor, backends and verify speak Korean")
    func koreanOperatorOutput() async throws {
        let cli = try await Self.withOneUser("korean-operators")
        let doctor = try await cli.run(["doctor", "--lang", "ko"])
        #expect(doctor.stdout.contains("무결성:    정상") && doctor.stdout.contains("사용자:    1명"), "\(doctor.stdout)")
        let backends = try await cli.run(["backends", "--lang", "ko"])
        #expect(backends.stdout.contains("SQLite 데이터베이스 하나"), "\(backends.stdout)")
        let verify = try await cli.run(["verify", "--lang", "ko"])
        #expect(verify.stdout.contains("verify sqlite: 검사") && verify.stdout.contains("통과"), "\(verify.stdout)")
    }

    @Test("with --lang ko, users show, export, import and migrate speak Korean; --json keeps its keys")
    func koreanTransferOutput() async throws {
        let cli = try await Self.withOneUser("korean-transfer")
        let show = try await cli.run(["users", "show", "leesoon7@example.com", "--lang", "ko"])
        let rows = show.stdout.split(separator: "\n").map(String.init)
        try #require(rows.count == 12, "\(show.stdout)")
        #expect(rows.first == "이메일:           leesoon7@example.com", "\(show.stdout)")
        #expect(rows[3] == "번호:             1", "\(rows)")
        #expect(rows[5].wholeMatch(of: #/비밀번호 변경일:  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#) != nil, "\(rows)")
        #expect(rows[6] == "비밀번호 방식:    argon2id", "\(rows)")
        #expect(rows[8] == "세션:             1", "\(show.stdout)")
        #expect(rows[9] == "상태:             사용 중", "\(rows)")
        #expect(rows.last == "이메일 확인:      확인되지 않음", "\(rows)")
        // Every value starts at column 19 as in English, a Hangul syllable taking two columns.
        for row in rows {
            let label = row.prefix { $0 != ":" } + ":" + row.drop { $0 != ":" }.dropFirst().prefix { $0 == " " }
            let columns = label.unicodeScalars.reduce(0) { $0 + ((0xAC00...0xD7A3).contains($1.value) ? 2 : 1) }
            #expect(columns == 18, "\(row)")
        }
        let file = cli.root + "/all.jsonl"
        let export = try await cli.run(["export", "--output", file, "--lang", "ko"])
        #expect(export.stdout == "사용자 1명과 세션 0개를 내보냈습니다.\n", "\(export.stdout)")
        let merged = try await cli.run(["import", "--input", file, "--merge", "--lang", "ko"])
        #expect(
            merged.stdout
                == "사용자 0명과 세션 0개를 가져왔습니다.\n충돌: leesoon7@example.com 계정이 이미 저장소에 있습니다 (그대로 두었습니다)\n",
            "\(merged.stdout)")
        let migrate = try await cli.run(
            ["migrate", "--to-backend", "lmdb", "--to-store", cli.root + "/copy.lmdb", "--lang", "ko"])
        #expect(migrate.stdout.hasPrefix("사용자 1명과 세션 1개를 sqlite에서 lmdb(으)로 옮기고 검증했습니다 (sha256 "), "\(migrate.stdout)")
        let json = try await cli.run(["import", "--input", file, "--merge", "--lang", "ko", "--json"]).json()
        #expect(json["imported"] as? Int == 0 && json["conflicts"] as? [String] == ["leesoon7@example.com"])
    }

    @Test("with --lang ko, a refused import says in Korean what it left, what to do, and what is wrong with the file")
    func koreanImportRefusals() async throws {
        let cli = try await Self.withOneUser("korean-refusals")
        let file = cli.root + "/all.jsonl"
        #expect(try await cli.run(["export", "--output", file]).status == 0)
        let notEmpty = try await cli.run(["import", "--input", file, "--lang", "ko"])
        #expect(notEmpty.status == 7)
        #expect(
            notEmpty.stderr
                == "오류: 대상 저장소가 비어 있지 않습니다: 사용자 1명이 있습니다; 아무것도 쓰지 않았습니다; 더하려면 --merge를 사용하세요\n",
            "\(notEmpty.stderr)")
        let json = try await cli.run(["import", "--input", file, "--lang", "ko", "--json"]).json()
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["code"] as? String == "store_not_empty")
        #expect((error["message"] as? String)?.hasSuffix("; 더하려면 --merge를 사용하세요") == true, "\(error)")
        // A damaged line: the reader's reason and the outcome are both Korean.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: "\"email\"", with: "\"emial\"")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let damaged = try await cli.run(
            ["import", "--input", file, "--store", cli.root + "/new.sqlite", "--lang", "ko"])
        #expect(damaged.status == 3)
        #expect(
            damaged.stderr == "오류: 내보내기 파일이 잘못되었습니다: \(file) 2번째 줄: 올바른 레코드가 아닙니다; 아무것도 쓰지 않았습니다\n",
            "\(damaged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/new.sqlite"), "nothing was created")
        let cut = try await cli.run(
            ["import", "--input", "-", "--store", cli.root + "/new.sqlite", "--lang", "ko"],
            stdinBytes: Array(text.utf8.prefix(300)))
        #expect(
            cut.stderr == "오류: 내보내기 파일이 잘못되었습니다: 표준 입력 2번째 줄: 마지막 줄이 잘렸습니다; 아무것도 쓰지 않았습니다\n",
            "\(cut.stderr)")
    }

    @Test("subcommands accept only the options they use; accounts app takes the app's")
    func onlyUsedOptions() async throws {
        let cli = try CLIRunner("used-options")
        for arguments in [
            ["backends", "--store", "x"], ["verify", "--store", "x"], ["users", "count", "--session-file", "x"],
            ["doctor", "--session-file", "x"],
        ] {
            let result = try await cli.run(arguments)
            #expect(result.status == 2, "\(arguments) was accepted")
        }
        let help = try await cli.run(["backends", "--help"])
        #expect(!help.stdout.contains("--store") && !help.stdout.contains("--session-file"), "\(help.stdout)")
        #expect(try await cli.run(["whoami", "--help"]).stdout.contains("--session-file"))
        #expect(try await cli.run(["app", "--help"]).stdout.contains("--store"))
        // Options reach the subcommand that declares them (a parent used to take --store).
        let store = cli.root + "/given.sqlite"
        let signup = try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin", "--store", store],
            stdin: [Self.password, Self.password])
        #expect(signup.status == 0 && FileManager.default.fileExists(atPath: store))
        #expect(try await cli.run(["users", "count", "--store", store]).stdout == "1\n")
    }
}
