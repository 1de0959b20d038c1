import AccountBackendKit
import AccountCore
import AccountCrypto
import Foundation
import SQLiteBackend

/// The *Getting started in Swift* article's program, whole: an account's life in an app that
/// embeds AccountStore, from sign-up to withdrawal, over a SQLite store at `storePath`, keeping
/// its session token in the file `tokenPath` between launches. Returns what it would show the
/// user, line by line; `hasher` is Argon2id at the recommended cost unless a test passes a
/// cheaper one.
public func gettingStarted(
    storePath: String, tokenPath: String, hasher: Argon2idPasswordHasher = .recommended
) async throws -> [String] {
    var shown: [String] = []
    // snippet.getting-started
    // Open the store (created when missing) and the service every flow goes through.
    let store = try await SQLiteBackendDescriptor().open(BackendConfiguration(location: storePath))
    let service = AccountService(
        repository: store, hasher: hasher, strength: ZxcvbnStrengthEstimator(), digester: SHA256TokenDigester(),
        random: SodiumRandomSource())

    // Sign up: every broken rule comes at once, each under its field.
    let password = "Tangerine-Kayak-42"
    do {
        _ = try await service.signUp(
            email: "Lee.Soon@example", password: "leesoon", confirmation: "x", nickname: "이")
    } catch let invalid as InvalidForm<SignUpField> {
        for (field, error) in invalid.check.brokenRules {
            shown.append("\(field): \(error.message(.english))")
        }
    }
    let signedUp = try await service.signUp(
        email: "leesoon7@example.com", password: password, confirmation: password, nickname: "이순신",
        remember: true, device: "my app")
    shown.append(signedUp.profile.welcome(.korean))  // 이순신 님 환영합니다.

    // Keep the session token where only this user can read it; the store keeps its SHA-256.
    guard
        FileManager.default.createFile(
            atPath: tokenPath, contents: Data(signedUp.token.utf8), attributes: [.posixPermissions: 0o600])
    else { throw CocoaError(.fileWriteUnknown) }

    // Next launch: auto-login from the saved token, or the start screen for a guest.
    let saved = try String(contentsOfFile: tokenPath, encoding: .utf8)
    switch try await service.sessions.start(token: saved) {
    case .member(let profile): shown.append(profile.welcome(.english))  // Welcome, 이순신.
    case .guest: shown.append("Sign up or log in.")
    }

    // Log out (the token is revoked in the store), then log in again.
    try await service.sessions.logout(token: saved)
    let loggedIn = try await service.login(email: "leesoon7@example.com", password: password, remember: false)
    shown.append("Signed in on \(try await service.sessions.list(token: loggedIn.token).count) device(s).")

    // Withdraw: the account and every session go; the email is free again.
    try await service.withdraw(token: loggedIn.token, password: password)
    shown.append(try await service.isRegistered(email: "leesoon7@example.com") ? "still here" : "withdrawn")
    try await store.close()
    // snippet.end
    return shown
}
