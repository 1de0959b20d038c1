import AccountCrypto
import AccountOperations
import ArgumentParser
import DurableFiles
import Foundation

/// Firebase Auth's project hash parameters, which `import --from firebase` needs: the export
/// holds each user's hash and salt, not the project's key. They are read from a file holding
/// the block the Firebase console shows (Authentication, Users, ⋮, Password hash parameters),
/// pasted as it is, so the signer key never shows in the process list or the shell's history:
///
///     hash_config {
///       algorithm: SCRYPT,
///       base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==,
///       base64_salt_separator: Bw==,
///       rounds: 8,
///       mem_cost: 14,
///     }
struct FirebaseHashOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A file holding the Firebase project's password hash parameters, as the console shows them.",
            valueName: "file"),
        completion: .file())
    var firebaseHashConfig: String?

    /// The parameters, or nil without the option.
    /// - Throws: a `ValidationError` naming the file and what is missing or wrong in it.
    func parameters() throws -> ForeignSourceOptions.FirebaseHash? {
        guard let firebaseHashConfig else { return nil }
        guard let bytes = try? WholeInput.read(firebaseHashConfig, atMost: 64 * 1024),
            let text = String(validating: bytes, as: UTF8.self)
        else { throw ValidationError("--firebase-hash-config \(firebaseHashConfig) cannot be read as text.") }
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(",") { value.removeLast() }
            values[parts[0].trimmingCharacters(in: .whitespaces)] = value
        }
        func problem(_ key: String) -> ValidationError {
            ValidationError("--firebase-hash-config \(firebaseHashConfig): \(key) is missing or not valid.")
        }
        if let algorithm = values["algorithm"], algorithm != "SCRYPT" { throw problem("algorithm (SCRYPT)") }
        guard let key = values["base64_signer_key"].flatMap(Base64.decode), !key.isEmpty else {
            throw problem("base64_signer_key")
        }
        guard let separator = values["base64_salt_separator"].flatMap(Base64.decode) else {
            throw problem("base64_salt_separator")
        }
        guard let rounds = values["rounds"].flatMap({ Int($0) }), (1...64).contains(rounds) else {
            throw problem("rounds")
        }
        guard let memoryCost = values["mem_cost"].flatMap({ Int($0) }), (1...30).contains(memoryCost) else {
            throw problem("mem_cost")
        }
        return .init(signerKey: key, saltSeparator: separator, rounds: rounds, memoryCost: memoryCost)
    }
}
