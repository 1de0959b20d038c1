import AccountCrypto
import AccountOperations
import ArgumentParser

/// Firebase Auth's project hash parameters, which `import --from firebase` needs: the export
/// holds each user's hash and salt, not the project's key.
struct FirebaseHashOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Firebase's base64_signer_key.", valueName: "base64")) var firebaseSignerKey: String?
    @Option(help: ArgumentHelp("Firebase's base64_salt_separator.", valueName: "base64"))
    var firebaseSaltSeparator: String?
    @Option(help: "Firebase's rounds.") var firebaseRounds: Int?
    @Option(help: "Firebase's mem_cost.") var firebaseMemCost: Int?

    /// The parameters, when all four are given and valid.
    var parameters: ForeignSourceOptions.FirebaseHash? {
        guard let key = firebaseSignerKey.flatMap(Base64.decode), !key.isEmpty,
            let separator = firebaseSaltSeparator.flatMap(Base64.decode), let rounds = firebaseRounds,
            let memoryCost = firebaseMemCost, (1...64).contains(rounds), (1...30).contains(memoryCost)
        else { return nil }
        return .init(signerKey: key, saltSeparator: separator, rounds: rounds, memoryCost: memoryCost)
    }

}
