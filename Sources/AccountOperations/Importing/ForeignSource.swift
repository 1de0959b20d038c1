public import AccountCore

/// Another system's export that `accounts import --from NAME` reads.
public protocol ForeignSource: Sendable {
    /// The name `--from` takes.
    static var name: String { get }
    /// Opens the file at `path` and checks its shape before any account is read, then reads
    /// its accounts in the source's order. `now` is when the import runs: a ban that ended
    /// before it is over, and an email a source keeps only a "verified" flag for was proven by
    /// then.
    /// - Throws: `invalidExport` naming the file and what is wrong with it as a whole (not this
    ///   system's export: the columns or keys it must have, and those it has; unreadable); a
    ///   single record that breaks a rule is not an error here.
    func open(_ path: String, now: Timestamp) throws(AccountError) -> ForeignAccountReader
}

extension ForeignSource {
    /// Every account in the file at `path`, in the source's order (for a small file).
    public func accounts(in path: String, now: Timestamp = SystemClock().now()) throws(AccountError)
        -> [ForeignAccount]
    {
        let reader = try open(path, now: now)
        var accounts: [ForeignAccount] = []
        while let account = try reader.next() { accounts.append(account) }
        return accounts
    }
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
