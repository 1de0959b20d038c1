/// The refusals every backend gives for records that only a hand-made file or a broken random
/// source makes, worded once so that every backend says the same, and names the user (the
/// conformance checks require both; SQLite's and PostgreSQL's own words would name a
/// constraint).
extension AccountError {
    /// A user whose id is already stored under another email. Refused, never skipped: storing
    /// it would replace that user.
    public static func userIDInUse(_ id: UserID) -> AccountError {
        .storeIO(detail: "user id \(id) is already in use")
    }

    /// A user whose number is already stored for another user, repeated in a batch, or not
    /// positive. Refused, never renumbered: apps keep the number in their own data.
    public static func userNumberInUse(_ number: Int) -> AccountError {
        number > 0
            ? .storeIO(detail: "user number \(number) is already in use")
            : .storeIO(detail: "user number \(number) is not positive")
    }

    /// A new session whose token hash is already stored, or repeated in a batch
    /// (`UserRepository.createUsers(_:sessions:)`): storing it would hand that session to
    /// another user. The message names the user, never the hash: a token hash is what a stored
    /// session is found by.
    public static func sessionAlreadyStored(of userID: UserID) -> AccountError {
        .storeIO(detail: "a session of user \(userID) has a token hash that is already stored")
    }
}
