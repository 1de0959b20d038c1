public import AccountCore

/// Another system's export that `accounts import --from NAME` reads.
public protocol ForeignSource: Sendable {
    /// The name `--from` takes.
    static var name: String { get }
    /// Every account in the file at `path`, in the source's order.
    /// - Throws: `invalidExport` naming the file and what is wrong with it as a whole (not this
    ///   system's export, unreadable); a single record that breaks a rule is not an error here.
    func accounts(in path: String) throws(AccountError) -> [ForeignAccount]
}

/// What an operator tells an import beyond the file: the hash parameters of a Firebase project,
/// a Devise app's pepper.
public struct ForeignSourceOptions: Sendable {
    /// Firebase Auth's project hash parameters (the console's "Password hash parameters").
    public struct FirebaseHash: Sendable {
        /// `base64_signer_key`, decoded.
        public var signerKey: [UInt8]
        /// `base64_salt_separator`, decoded.
        public var saltSeparator: [UInt8]
        /// `rounds`.
        public var rounds: Int
        /// `mem_cost`.
        public var memoryCost: Int

        /// Creates the parameters.
        public init(signerKey: [UInt8], saltSeparator: [UInt8], rounds: Int, memoryCost: Int) {
            self.signerKey = signerKey
            self.saltSeparator = saltSeparator
            self.rounds = rounds
            self.memoryCost = memoryCost
        }
    }

    /// Firebase's hash parameters, which `--from firebase` needs.
    public var firebase: FirebaseHash?
    /// Devise's `config.pepper`, when the app set one.
    public var devisePepper: [UInt8]?

    /// Creates options.
    public init(firebase: FirebaseHash? = nil, devisePepper: [UInt8]? = nil) {
        self.firebase = firebase
        self.devisePepper = devisePepper
    }
}
