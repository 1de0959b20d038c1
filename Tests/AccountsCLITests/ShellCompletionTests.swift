import AccountTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// bash's completion is a function a test can call (`ArgumentParsingTests`); zsh's and fish's
/// work only inside an interactive shell, and fish's asks that shell for the cursor, which its
/// non-interactive `complete -C` does not report. So these start each shell on a
/// pseudo-terminal with the script swift-argument-parser made for it and press TAB, as a person
/// would.
@Suite("zsh and fish complete from the program on TAB")
struct ShellCompletionTests {
    static let shells = ["zsh", "fish"]
    static let notInstalled = "needs zsh and fish (scripts/test.sh installs them)"

    static var areInstalled: Bool {
        shells.allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) }
    }

    @Test(
        "TAB offers the store's emails and the build's backends, as in bash",
        .enabled(if: areInstalled, Comment(rawValue: notInstalled)), arguments: shells)
    func completesOnTab(_ shell: String) async throws {
        let cli = try CLIRunner("completion-\(shell)")
        // user100000@example.com, user100001@example.com and user100002@example.com.
        _ = try await WrittenStore.make(cli, count: 3)
        let shellTerminal = try await Self.start(shell, in: cli)
        let line = "accounts users show --store big.sqlite "
        // Several emails: the shell inserts what they share.
        shellTerminal.type(line + "user\t")
        try await shellTerminal.expect(line + "user10000")
        // One email: the shell inserts all of it and a space.
        shellTerminal.type("\u{15}" + line + "user100002\t")
        try await shellTerminal.expect(line + "user100002@example.com ")
        shellTerminal.type("\u{15}accounts users list --store big.sqlite --after user100001\t")
        try await shellTerminal.expect("--after user100001@example.com ")
        // An option's value, from the running program's registry.
        shellTerminal.type("\u{15}accounts signup --backend lm\t")
        try await shellTerminal.expect("--backend lmdb ")
        shellTerminal.type("\u{15}exit\n")
        #expect(try await shellTerminal.waitForExit() == 0, "\(shellTerminal.transcript)")
    }

    /// `shell` on a pseudo-terminal, interactive, with `accounts` on its `PATH` (the scripts
    /// call the program by the name on the line, as an installed one is found), the completion
    /// script loaded, a prompt the test can wait for, and the scratch folder as its working
    /// folder. `TERM=dumb` keeps colours and cursor moves out of what it shows.
    static func start(_ shell: String, in cli: borrowing CLIRunner) async throws -> PseudoTerminal {
        let files = FileManager.default
        let bin = cli.root + "/bin"
        try files.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try files.createSymbolicLink(atPath: bin + "/accounts", withDestinationPath: CLIRunner.executable)
        let script = try await cli.run(["--generate-completion-script", shell])
        #expect(script.status == 0, "\(script.stderr)")
        var environment = cli.environment.merging(["PATH": bin + ":/usr/bin:/bin", "TERM": "dumb"]) { $1 }
        let arguments: [String]
        if shell == "zsh" {
            // zsh reads its start-up file from ZDOTDIR and finds `_accounts` on $fpath.
            let folder = cli.root + "/zsh"
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try script.stdout.write(toFile: folder + "/_accounts", atomically: true, encoding: .utf8)
            let startup = "fpath=('\(folder)' $fpath)\nautoload -U compinit\ncompinit -u\nPROMPT='ready> '\n"
            try startup.write(toFile: folder + "/.zshrc", atomically: true, encoding: .utf8)
            environment["ZDOTDIR"] = folder
            arguments = ["-i"]
        } else {
            let path = cli.root + "/accounts.fish"
            try script.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            arguments = [
                "--no-config", "--init-command", "source '\(path)'; function fish_prompt; echo -n 'ready> '; end",
            ]
        }
        let terminal = try PseudoTerminal(
            executable: "/usr/bin/" + shell, arguments: arguments, environment: environment)
        try await terminal.expect("ready> ")
        terminal.type("cd '\(cli.root)'\n")
        try await terminal.expect("ready> ")
        return terminal
    }
}
