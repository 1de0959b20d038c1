/// One password try of a remote client, as the ``LoginThrottle`` counts it: counted as a failure
/// from its start (``LoginThrottle/attempt(email:from:at:)``), so that tries sent all at once
/// are throttled as if one after the other, until it settles. A wrong password leaves it
/// counted; a match takes it back (``succeeded()``); a try that never reached an answer on the
/// password (the store or the hashing queue failed) is taken back as if never made
/// (``abandoned()``).
public struct LoginAttempt: Sendable {
    let throttle: LoginThrottle
    let email: String
    let origin: LoginOrigin

    /// The password matched: the device or client starts afresh.
    public func succeeded() {
        throttle.succeeded(email: email, from: origin)
    }

    /// The try ended without an answer on the password: it no longer counts.
    public func abandoned() {
        throttle.abandoned(email: email, from: origin)
    }
}
