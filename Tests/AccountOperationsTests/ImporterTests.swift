import AccountCore
import AccountCrypto
import AccountOperations
import AccountTestSupport
import Foundation
import MemoryBackend
import Testing

/// The importers on their own, over one small export of each system made by that system's own
/// code (scripts/fixtures/foreign-exports.py, `expected.json` beside them): what each reads,
/// refuses and stores, and that every stored hash verifies its user's old password. The CLI's
/// `accounts import` over the same files, end to end, is `ForeignImportTests`' part.
@Suite("Importers")
struct ImporterTests {
    struct Expected: Decodable {
        struct User: Decodable {
            let email: String
            let password: String
            let scheme: String
        }
        let system: String
        let arguments: [String]
        let imported: [User]
        let refused: [String]
    }

    static let folder = PackageFiles.path("Tests/AccountOperationsTests/Fixtures/Imports")
    static let expected: [String: Expected] = {
        let data = FileManager.default.contents(atPath: folder + "/expected.json") ?? Data()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (try? decoder.decode([String: Expected].self, from: data)) ?? [:]
    }()

    /// The fixtures whose system needs nothing beyond the file (Firebase's hash parameters and a
    /// Devise pepper are read by the CLI, which `ForeignImportTests` drives).
    static let plainFixtures = expected.filter { $0.value.arguments.isEmpty }.keys.sorted()

    @Test(
        "an export is read, checked and planned: the users kept, the records refused, each hash verifying",
        arguments: plainFixtures)
    func plans(_ file: String) throws {
        let expected = try #require(Self.expected[file])
        let source = try #require(try ForeignSources.source(named: expected.system, options: ForeignSourceOptions()))
        let plan = ForeignImporter.plan(
            try source.accounts(in: Self.folder + "/" + file), now: Timestamp(millisecondsSince1970: 0),
            random: SeededRandom())
        #expect(plan.users.map(\.email) == expected.imported.map(\.email))
        #expect(plan.refused.map(\.source) == expected.refused)
        let hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.fastForTests)
        for (user, wanted) in zip(plan.users, expected.imported) {
            #expect(PasswordSchemes.name(of: user.passwordHash) == wanted.scheme, "\(user.email)")
            #expect(hasher.verify(typed: wanted.password, against: user.passwordHash), "\(user.email) signs in")
            #expect(!hasher.verify(typed: wanted.password + "x", against: user.passwordHash), "\(user.email)")
        }
    }

    @Test("Strapi's and Django's integer ids become the users' numbers where the store never gave them")
    func sourceIDsBecomeNumbers() async throws {
        let scratch = try ScratchFolder("import-numbers")
        let hash = "$2a$10$xmNttMt.4aKSRCj8oQ9dz.5v6u5y183W7tQG/HBAne4BPdOzBCwU6"
        let csv = scratch.path + "/up_users.csv"
        try """
        id,email,username,password,created_at
        17,first@example.com,first,\(hash),2024-05-29T16:26:40.123Z
        42,second@example.com,second,\(hash),2024-05-29T16:26:41.000Z
        3,third@example.com,third,\(hash),2024-05-29T16:26:42.000Z

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let accounts = try StrapiSource().accounts(in: csv)
        #expect(accounts.map(\.number) == [17, 42, 3])
        let plan = ForeignImporter.plan(accounts, now: Timestamp(millisecondsSince1970: 0), random: SeededRandom())
        // A store that gave numbers 1 … 3 before (user 3 withdrew): 17 and 42 are kept, 3 is not.
        let store = MemoryUserRepository()
        for n in 1...3 {
            try await store.createUser(
                UserRecord(
                    id: UserID(rawValue: String(repeating: "0", count: 31) + String(n)),
                    email: "resident\(n)@example.com",
                    nickname: "r", passwordHash: hash, createdAt: Timestamp(millisecondsSince1970: 0)),
                initialSession: nil)
        }
        #expect(try await store.deleteUser(id: UserID(rawValue: String(repeating: "0", count: 31) + "3")))
        let report = try await ForeignImporter.store(plan, into: store, merge: true)
        #expect(report.imported == 3 && report.renumbered == 1)
        let numbers = try await ["first", "second", "third"].asyncNumbers(in: store)
        #expect(numbers == [17, 42, 43], "the taken 3 got the next number after the kept 42")
    }

    @Test("a hash that would cost too much to check is refused at import, naming its cost; a raised limit admits it")
    func costlyHashesAreRefused() throws {
        let scratch = try ScratchFolder("import-costly")
        let cheap = "$2a$10$xmNttMt.4aKSRCj8oQ9dz.5v6u5y183W7tQG/HBAne4BPdOzBCwU6"
        let costly = "$2a$31$xmNttMt.4aKSRCj8oQ9dz.5v6u5y183W7tQG/HBAne4BPdOzBCwU6"
        let csv = scratch.path + "/up_users.csv"
        try """
        id,email,username,password,created_at
        1,cheap@example.com,cheap,\(cheap),2024-05-29T16:26:40.123Z
        2,costly@example.com,costly,\(costly),2024-05-29T16:26:41.000Z

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let accounts = try StrapiSource().accounts(in: csv)
        let plan = ForeignImporter.plan(accounts, now: Timestamp(millisecondsSince1970: 0), random: SeededRandom())
        #expect(plan.users.map(\.email) == ["cheap@example.com"])
        let refusal = try #require(plan.refused.first)
        #expect(refusal.user.email == "costly@example.com" && !refusal.mendableInFile)
        #expect(refusal.problem(.english).contains("bcrypt cost 31 is over the limit of 16"))
        #expect(!refusal.problem(.english).contains(costly), "the hash stays out of the message")
        let admitting = ForeignImporter.plan(
            accounts, now: Timestamp(millisecondsSince1970: 0), random: SeededRandom(),
            limits: LegacyCostLimits(bcryptCost: 31))
        #expect(admitting.users.count == 2 && admitting.refused.isEmpty)
    }

    @Test(
        "a refused record leaves its email to the next record; an empty password is named; a Unicode domain is stored in ASCII"
    )
    func recordByRecord() throws {
        let scratch = try ScratchFolder("import-records")
        let hash = "$2a$10$xmNttMt.4aKSRCj8oQ9dz.5v6u5y183W7tQG/HBAne4BPdOzBCwU6"
        let csv = scratch.path + "/up_users.csv"
        try """
        id,email,username,password,created_at
        1,twice@example.com,first,\(hash.prefix(50)),2024-05-29T16:26:40.123Z
        2,Twice@Example.com,second,\(hash),2024-05-29T16:26:41.000Z
        3,empty@example.com,third,,2024-05-29T16:26:42.000Z
        4,user@실례.한국,fourth,\(hash),2024-05-29T16:26:43.000Z
        5,puny@xn--9n2bp8q.xn--3e0b707e,fifth,\(hash),2024-05-29T16:26:44.000Z

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let plan = ForeignImporter.plan(
            try StrapiSource().accounts(in: csv), now: Timestamp(millisecondsSince1970: 0), random: SeededRandom())
        #expect(
            plan.users.map(\.email) == [
                "twice@example.com", "user@xn--9n2bp8q.xn--3e0b707e", "puny@xn--9n2bp8q.xn--3e0b707e",
            ])
        #expect(plan.users.first?.number == 2, "the record stored is the second, with its own id")
        #expect(plan.refused.map(\.source) == ["user 1", "user 3"])
        #expect(plan.refused[0].problem(.english).contains("60 characters long; this one is 50"))
        #expect(plan.refused[1].problem(.english).contains("its password is empty"))
        #expect(!plan.refused[1].problem(.english).contains("no scheme"))
    }

    @Test("the check-up names the accounts whose stored hash is over the limits, and calls it no damage")
    func checkUpCountsCostlyHashes() async throws {
        let store = MemoryUserRepository()
        for (n, cost) in [(1, 10), (2, 20)] {
            try await store.createUser(
                UserRecord(
                    id: UserID(rawValue: String(repeating: "0", count: 31) + String(n)), email: "u\(n)@example.com",
                    nickname: "u\(n)", passwordHash: "$2b$\(cost)$" + String(repeating: "a", count: 53),
                    createdAt: Timestamp(millisecondsSince1970: 0)),
                initialSession: nil)
        }
        let checkup = try await AccountAdministration(repository: store).checkUp(
            purgeExpired: false, removeOrphanedSessions: false)
        #expect(checkup.unusableHashes.map(\.email) == ["u2@example.com"])
        #expect(checkup.unusableHashes.first?.problem == .tooCostly("bcrypt cost 20 is over the limit of 16"))
        #expect(checkup.legacySchemes == ["bcrypt": 1], "the unusable hash is not counted as waiting for its upgrade")
        #expect(!checkup.isDamaged)
        let lenient = try await AccountAdministration(repository: store, legacyLimits: LegacyCostLimits(bcryptCost: 20))
            .checkUp(purgeExpired: false, removeOrphanedSessions: false)
        #expect(lenient.unusableHashes.isEmpty)
    }
}

extension Array where Element == String {
    /// The numbers of the users `<name>@example.com` in `store`, in order.
    fileprivate func asyncNumbers(in store: MemoryUserRepository) async throws -> [Int?] {
        var numbers: [Int?] = []
        for name in self { numbers.append(try await store.user(email: name + "@example.com")?.number) }
        return numbers
    }
}
