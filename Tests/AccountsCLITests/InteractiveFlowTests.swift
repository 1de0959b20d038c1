import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// `accounts` with no subcommand, driven through a pseudo-terminal like a person would.
@Suite("Interactive flow")
struct InteractiveFlowTests {
    let password = "Tangerine-Kayak-42"

    func terminal(_ cli: borrowing CLIRunner, _ extra: [String: String] = [:]) throws -> PseudoTerminal {
        try PseudoTerminal(executable: CLIRunner.executable, environment: cli.environment.merging(extra) { $1 })
    }

    /// From the start screen to the sign-up form's nickname prompt, with a valid, free ID.
    func openSignUpFormAtNickname(_ app: PseudoTerminal) async throws {
        try await app.expect("Choose: ")
        app.type("1\n")
        try await app.expect("ID (email): ")
        app.type("leesoon7@example.com\n")
        try await app.expect("Nickname: ")
    }

    /// From the start screen to the sign-up form's password prompt, with a valid, free ID.
    func openSignUpForm(_ app: PseudoTerminal) async throws {
        try await openSignUpFormAtNickname(app)
        app.type("이순신\n")
        try await app.expect("Password: ")
    }

    /// The sessions the store holds for `email`, read through the backend, not the CLI.
    func sessions(_ cli: borrowing CLIRunner, _ email: String) async throws -> [SessionRecord] {
        let store = try await BackendRegistry.standard.open(
            Backends.sqlite, BackendConfiguration(location: cli.storePath, values: Backends.sqlite.defaultValues))
        let user = try #require(try await store.user(email: email))
        let sessions = try await store.sessions(userID: user.id)
        try await store.close()
        return sessions
    }

    func signUp(_ cli: borrowing CLIRunner, nickname: String = "이순신") async throws {
        try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", nickname, "--password-stdin"],
            stdin: [password, password])
    }

    @Test("a guest signs up through the form: rules shown first, every broken rule at once, then welcome")
    func signUpForm() async throws {
        let cli = try CLIRunner("tty-signup")
        let app = try terminal(cli)
        try await app.expect("You are not signed in.")
        try await app.expect("Choose: ")
        app.type("1\n")
        try await app.expect("6–20 lowercase letters and digits before '@'")
        try await app.expect("ID (email): ")
        app.type("Abc@x\n")
        let broken = try await app.expect("ID (email): ")
        for rule in ["uppercase", "at least 6 characters", "two labels"] {
            #expect(broken.contains(rule), "every broken rule is listed at once; missing \(rule) in: \(broken)")
        }
        app.type("leesoon7@example.com\n")
        try await app.expect("2–20 characters")
        try await app.expect("Nickname: ")
        app.type("이\n")
        try await app.expect("at least 2 characters")
        try await app.expect("Nickname: ")
        app.type("kayak\n")
        try await app.expect("must not contain the ID (before '@') or the nickname")
        try await app.expect("Password: ")
        app.type("short\n")
        try await app.expect("at least 8 characters")
        try await app.expect("Password: ")
        app.type("password1\n")
        try await app.expect("too easy to guess")
        try await app.expect("Password: ")
        app.type(password + "\n")
        try await app.expect("must not contain the nickname")
        try await app.expect("Password: ")
        // An empty password goes back to the nickname, so the clash can be fixed on that side.
        app.type("\n")
        try await app.expect("Nickname: ")
        app.type("이순신\n")
        try await app.expect("Password: ")
        app.type(password + "\n")
        try await app.expect("Confirm password: ")
        app.type("Tangerine-Kayak-43\n")
        try await app.expect("does not match")
        try await app.expect("Confirm password: ")
        app.type(password + "\n")
        try await app.expect("Remember me? (y/N): ")
        app.type("y\n")
        try await app.expect("Welcome, 이순신.")
        try await app.expect("Signed in as leesoon7@example.com.")
        try await app.expect("Choose: ")
        app.type("q\n")
        try await app.expect("Goodbye.")
        #expect(try await app.waitForExit() == 0)
        #expect(!app.transcript.contains(password), "a hidden field was echoed")
        #expect(
            try await cli.run(["start"]).stdout == "Welcome, 이순신.\n", "the session was saved, as the apps go to welcome"
        )
        #expect(try await sessions(cli, "leesoon7@example.com").map(\.remember) == [true], "remember me was kept")
    }

    @Test("a taken ID is reported as soon as it is entered, and again on submit when taken meanwhile")
    func takenEmail() async throws {
        let cli = try CLIRunner("tty-taken")
        try await signUp(cli, nickname: "먼저")
        try await cli.run(["logout"])
        let app = try terminal(cli)
        try await app.expect("Choose: ")
        app.type("1\n")
        try await app.expect("ID (email): ")
        app.type("leesoon7@EXAMPLE.com\n")
        try await app.expect("already registered")
        let next = try await app.expect(": ")
        #expect(next.hasSuffix("ID (email): "), "a taken ID is asked again before anything else: \(next)")
        app.type("admiral7@example.com\n")
        try await app.expect("Nickname: ")
        // Another client takes the ID while this form is being filled: the store decides on submit.
        try await cli.run(
            ["signup", "--email", "admiral7@example.com", "--nickname", "다른사람", "--password-stdin"],
            stdin: [password, password])
        app.type("이순신\n")
        try await app.expect("Password: ")
        app.type(password + "\n")
        try await app.expect("Confirm password: ")
        app.type(password + "\n")
        try await app.expect("(y/N): ")
        app.type("\n")
        try await app.expect("already registered")
        let retry = try await app.expect("ID (email): ")
        #expect(
            !retry.contains("Nickname: ") && !retry.contains("Password: "),
            "after a taken ID on submit only the ID is asked: \(retry)")
        app.type("captain7@example.com\n")
        try await app.expect("Welcome, 이순신.")
        app.type("q\n")
        #expect(try await app.waitForExit() == 0)
        #expect(try await cli.run(["users", "count"]).stdout == "3\n")
    }

    @Test("every screen has a way back: an empty field returns to the one before, then to the menu")
    func wayBack() async throws {
        let cli = try CLIRunner("tty-back")
        let app = try terminal(cli)
        try await openSignUpForm(app)
        app.type("\n")
        try await app.expect("Nickname: ")
        app.type("\n")
        try await app.expect("ID (email): ")
        app.type("\n")
        try await app.expect("Choose: ")
        app.type("2\n")
        try await app.expect("ID (email): ")
        app.type("\n")
        try await app.expect("Choose: ")
        app.type("q\n")
        #expect(try await app.waitForExit() == 0)
        #expect(try await cli.run(["users", "count"]).stdout == "0\n", "going back wrote nothing")
    }

    @Test("a failed login asks for the password again on the same screen")
    func failedLogin() async throws {
        let cli = try CLIRunner("tty-login")
        try await signUp(cli)
        try await cli.run(["logout"])
        let app = try terminal(cli)
        try await app.expect("Choose: ")
        app.type("2\n")
        try await app.expect("ID (email): ")
        app.type("leesoon7@example.com\n")
        try await app.expect("Password: ")
        app.type("Wrong-Password-99\n")
        try await app.expect("Remember me? (y/N): ")
        app.type("n\n")
        try await app.expect("incorrect")
        let next = try await app.expect(": ")
        #expect(next.hasSuffix("Password: "), "the login screen asks the password again: \(next)")
        app.type(password + "\n")
        try await app.expect("Welcome, 이순신.")
        try await app.expect("Signed in as leesoon7@example.com.")
        app.type("q\n")
        #expect(try await app.waitForExit() == 0)
    }

    @Test("change password checks each field as entered, refuses the old password and never mentions an email")
    func changePasswordForm() async throws {
        let cli = try CLIRunner("tty-passwd")
        try await signUp(cli)
        let app = try terminal(cli)
        try await app.expect("Choose: ")
        app.type("2\n")
        try await app.expect("Current password: ")
        app.type("Wrong-Password-99\n")
        try await app.expect("New password: ")
        app.type("short\n")
        try await app.expect("at least 8 characters")
        try await app.expect("New password: ")
        app.type("Wrong-Password-99\n")
        try await app.expect("must differ from the current one")
        try await app.expect("New password: ")
        app.type("Quokka-Lantern-77\n")
        try await app.expect("Confirm new password: ")
        app.type("Quokka-Lantern-78\n")
        try await app.expect("does not match")
        try await app.expect("Confirm new password: ")
        app.type("Quokka-Lantern-77\n")
        let refused = try await app.expect("Current password: ")
        #expect(refused.contains("The current password is incorrect."))
        #expect(!refused.lowercased().contains("email"), "the form never asked an email: \(refused)")
        app.type(password + "\n")
        try await app.expect("Password changed")
        try await app.expect("Choose: ")
        app.type("2\n")
        try await app.expect("Current password: ")
        app.type("\n")
        try await app.expect("Choose: ")
        app.type("q\n")
        #expect(try await app.waitForExit() == 0)
        try await cli.run(["logout"])
        let login = try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin"], stdin: ["Quokka-Lantern-77"])
        #expect(login.status == 0, "the new password logs in: \(login.stdout)")
    }

    @Test("withdrawal is confirmed only by the word shown", arguments: ["y", "YES", "예", "yes please", "네"])
    func withdrawNeedsTheWord(answer: String) async throws {
        let cli = try CLIRunner("tty-yes")
        try await signUp(cli)
        let app = try terminal(cli)
        try await app.expect("Choose: ")
        app.type("3\n")
        try await app.expect("Type yes to continue: ")
        app.type(answer + "\n")
        try await app.expect("Withdrawal cancelled; nothing was deleted.")
        try await app.expect("Choose: ")
        app.type("q\n")
        #expect(try await app.waitForExit() == 0)
        #expect(try await cli.run(["users", "count"]).stdout == "1\n")
    }

    @Test("a member logs out, logs in again, changes the password and withdraws")
    func memberMenu() async throws {
        let cli = try CLIRunner("tty-member")
        try await signUp(cli)
        let app = try terminal(cli, ["LANG": "ko_KR.UTF-8"])
        try await app.expect("이순신 님 환영합니다.")
        try await app.expect("아이디: leesoon7@example.com")
        try await app.expect("선택: ")
        app.type("1\n")
        try await app.expect("로그아웃되었습니다.")
        try await app.expect("선택: ")
        app.type("2\n")
        try await app.expect("아이디(이메일): ")
        app.type("leesoon7@example.com\n")
        try await app.expect("비밀번호: ")
        app.type(password + "\n")
        try await app.expect("(y/N): ")
        app.type("y\n")
        try await app.expect("이순신 님 환영합니다.")
        try await app.expect("선택: ")
        app.type("2\n")
        try await app.expect("현재 비밀번호: ")
        app.type(password + "\n")
        try await app.expect("새 비밀번호: ")
        app.type("Quokka-Lantern-77\n")
        try await app.expect("새 비밀번호 확인: ")
        app.type("Quokka-Lantern-77\n")
        try await app.expect("비밀번호가 변경되었습니다.")
        try await app.expect("선택: ")
        app.type("3\n")
        try await app.expect("네(또는 yes)를 입력하세요: ")
        app.type("네\n")
        try await app.expect("비밀번호: ")
        app.type("Quokka-Lantern-77\n")
        try await app.expect("회원 탈퇴가 완료되었습니다.")
        try await app.expect("로그인되어 있지 않습니다.")
        app.type("q\n")
        #expect(try await app.waitForExit() == 0)
        #expect(try await cli.run(["users", "count"]).stdout == "0\n")
    }

    @Test("a password that is not UTF-8 is refused at its prompt and asked again")
    func brokenUTF8AtPrompt() async throws {
        let cli = try CLIRunner("tty-utf8")
        let app = try terminal(cli)
        try await openSignUpForm(app)
        app.type(bytes: Array("Tangerine".utf8) + [0xFF, 0xFE] + Array("Kayak-42\n".utf8))
        try await app.expect("not valid UTF-8")
        try await app.expect("Password: ")
        app.type("\u{4}")
        _ = try await app.waitForExit()
        #expect(try await cli.run(["users", "count"]).stdout == "0\n", "nothing was signed up")
    }

    @Test("`accounts withdraw` at a terminal is confirmed only by the word shown too")
    func withdrawCommandNeedsTheWord() async throws {
        let cli = try CLIRunner("tty-withdraw-yes")
        try await signUp(cli)
        let app = try PseudoTerminal(
            executable: CLIRunner.executable, arguments: ["withdraw"], environment: cli.environment)
        try await app.expect("Type yes to continue: ")
        app.type("y\n")
        #expect(try await app.waitForExit() != 0)
        #expect(app.transcript.contains("nothing was deleted"), "\(app.transcript)")
        #expect(try await cli.run(["users", "count"]).stdout == "1\n")
    }

    @Test("Ctrl-D in the middle of the form leaves with status 130, on its own line, with nothing written")
    func controlD() async throws {
        let cli = try CLIRunner("tty-eof")
        let app = try terminal(cli)
        try await openSignUpForm(app)
        app.type(password + "\n")
        try await app.expect("Confirm password: ")
        app.type("\u{4}")
        let end = try await app.expect("nothing unfinished was saved")
        #expect(end.hasPrefix("\r\n") || end.hasPrefix("\n"), "the message starts on its own line: \(end)")
        #expect(try await app.waitForExit() == 130, "Ctrl-D ends the app like Ctrl-C")
        #expect(try await cli.run(["users", "count"]).stdout == "0\n")
    }

    @Test(
        "Ctrl-C at a prompt leaves with status 130, ending the prompt's line, with nothing written",
        arguments: [true, false])
    func controlC(atHiddenPrompt: Bool) async throws {
        let cli = try CLIRunner("tty-int")
        let app = try terminal(cli)
        try await openSignUpForm(app)
        if !atHiddenPrompt {
            app.type("\n")
            try await app.expect("Nickname: ")
        }
        app.type("\u{3}")
        #expect(try await app.waitForExit() == 130)
        #expect(
            app.transcript.utf8.last == UInt8(ascii: "\n"),
            "the shell's prompt starts on a line of its own: \(app.transcript.suffix(40))")
        #expect(
            app.transcript.contains("\nCancelled; nothing unfinished was saved.\r\n"),
            "the same message as Ctrl-D: \(app.transcript.suffix(80))")
        #expect(try await cli.run(["users", "count"]).stdout == "0\n")
    }

    @Test("Ctrl-C or Ctrl-D at the main menu quits: Goodbye, status 0", arguments: ["\u{3}", "\u{4}"])
    func leaveTheMenu(_ key: String) async throws {
        let cli = try CLIRunner("tty-menu-leave")
        let app = try terminal(cli)
        try await app.expect("Choose: ")
        app.type(key)
        #expect(try await app.waitForExit() == 0, "quitting from the menu is no cancellation")
        #expect(app.transcript.contains("Goodbye.\r\n"), "\(app.transcript.suffix(80))")
        #expect(!app.transcript.contains("Cancelled"))
    }

    @Test("a nickname that is not UTF-8 is refused at its prompt with its rule and asked again")
    func brokenNicknameAtPrompt() async throws {
        let cli = try CLIRunner("tty-nickname-utf8")
        let app = try terminal(cli)
        try await openSignUpFormAtNickname(app)
        app.type(bytes: [0xFF, 0xFE] + Array("길동\n".utf8))
        try await app.expect(AccountError.invalidNickname(.notUTF8).message(.english))
        try await app.expect("Nickname: ")
        app.type("\u{4}")
        #expect(try await app.waitForExit() == 130)
        #expect(try await cli.run(["users", "count"]).stdout == "0\n", "nothing was signed up")
    }

    @Test(
        "rule text wraps between words to the terminal's width, Hangul counted two columns",
        arguments: [
            ("C.UTF-8", "Choose: ", "ID (email): ", Language.english), ("ko_KR.UTF-8", "선택: ", "아이디(이메일): ", .korean),
        ])
    func wrapsBetweenWords(_ locale: String, _ choose: String, _ idPrompt: String, _ language: Language) async throws {
        let cli = try CLIRunner("tty-wrap")
        let app = try PseudoTerminal(
            executable: CLIRunner.executable, environment: cli.environment.merging(["LANG": locale]) { $1 }, columns: 40
        )
        try await app.expect(choose)
        app.type("1\n")
        try await app.expect(idPrompt)
        app.type("\u{4}")
        _ = try await app.waitForExit()
        let lines = app.transcript.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
        for line in lines {
            #expect(Self.columns(line) <= 40, "wider than the terminal: \(line)")
        }
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(
            words(lines.joined(separator: " ")).contains(words(RuleSummary.id(language))),
            "the rule's words, each whole, in order: \(lines)")
    }

    /// The columns a terminal gives `text`: two for Hangul and other wide characters.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            let wide =
                (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                || (0xAC00...0xD7A3).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value)
            return total + (wide ? 2 : 1)
        }
    }

    @Test("without a terminal, accounts prints its help")
    func noTerminal() async throws {
        let cli = try CLIRunner("tty-none")
        let result = try await cli.run([])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: accounts"))
        #expect(result.stdout.contains("signup"))
    }
}
