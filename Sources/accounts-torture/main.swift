import AccountBackendKit
// accounts-torture: a child process for the crash-safety tests. It signs up users in a loop on
// one store and prints "done EMAIL" (flushed) after each sign-up has returned, until it is
// killed. The parent kills it at random moments and checks that every reported user is there.
//
// usage: accounts-torture BACKEND STORE PREFIX [COUNT]
import AccountCore
import StandardBackends

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    print("usage: accounts-torture BACKEND STORE PREFIX [COUNT]")
    exit(2)
}
let backends = BackendRegistry.standard
let backend = try backends.descriptor(named: arguments[1])
let store = try await ConfiguredBackend(
    backend, BackendConfiguration(location: arguments[2], values: backend.defaultValues), in: backends
).open(creating: true)
let prefix = arguments[3]
let count = arguments.count > 4 ? Int(arguments[4]) ?? Int.max : Int.max
var random = SystemRandomNumberGenerator()
for n in 0..<count {
    let email = "\(prefix)\(n)@example.com"
    let id = UserID(rawValue: Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }))
    let user = UserRecord(
        id: id, email: email, nickname: "crash \(n)", passwordHash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA",
        createdAt: Timestamp(millisecondsSince1970: Int64(n)))
    let session = SessionRecord(
        tokenHash: Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }), userID: id,
        createdAt: user.createdAt, lastSeenAt: user.createdAt, expiresAt: user.createdAt.adding(seconds: 3_600),
        idleTimeoutSeconds: 600, remember: false)
    try await store.createUser(user, initialSession: session)
    // write(2) at once: a line printed is a sign-up that returned, even if we die right after.
    let line = Array("done \(email)\n".utf8)
    let written = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    // The parent is gone (EPIPE: its test process inherits, and passes on, an ignored SIGPIPE
    // once SwiftNIO has run in it): nobody counts the lines any more, so stop instead of
    // signing up users until the disk is full.
    guard written == line.count else { exit(3) }
}
try await store.close()
