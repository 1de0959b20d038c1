import AccountCore
import AccountCrypto
import AccountOperations
import AccountTestSupport
import Foundation
import MemoryBackend
import Synchronization
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
        let blocked: [Blocked]
        let temporary: [String]
        let verified: [String]

        struct Blocked: Decodable {
            let source: String
            let email: String
            let password: String
        }
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

    static let now = Timestamp(millisecondsSince1970: 1_800_000_000_000)

    /// Checks `path` as `source`'s export and stores what it accepts into a new memory store.
    static func imported(
        _ source: any ForeignSource, _ path: String, options: ForeignImportOptions = ForeignImportOptions(now: now)
    ) async throws -> (check: ImportCheck, store: MemoryUserRepository, report: ImportReport) {
        let check = try ForeignImporter.check(source, path: path, options: options)
        let store = MemoryUserRepository()
        let report = try await ForeignImporter.store(
            check, from: source, path: path, options: options, into: store, merge: false)
        return (check, store, report)
    }

    /// Writes `text` to a file named `name` in `scratch`.
    static func file(_ scratch: borrowing ScratchFolder, _ name: String, _ text: String) throws -> String {
        let path = scratch.path + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let hash = "$2a$10$xmNttMt.4aKSRCj8oQ9dz.5v6u5y183W7tQG/HBAne4BPdOzBCwU6"

    @Test(
        "an export is read, checked and stored: the users kept, the records refused, each hash verifying",
        arguments: plainFixtures)
    func imports(_ file: String) async throws {
        let expected = try #require(Self.expected[file])
        let source = try #require(try ForeignSources.source(named: expected.system, options: ForeignSourceOptions()))
        let (check, store, report) = try await Self.imported(source, Self.folder + "/" + file)
        #expect(Set(check.refused.map(\.source)) == Set(expected.refused + expected.blocked.map(\.source)))
        #expect(report.imported == expected.imported.count)
        for blocked in expected.blocked {
            let refusal = try #require(check.refused.first { $0.source == blocked.source })
            #expect(refusal.problem(.english).contains("--keep-blocked"), "\(refusal.problem(.english))")
            #expect(try await store.user(email: blocked.email) == nil)
        }
        let hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.fastForTests)
        for wanted in expected.imported {
            let user = try #require(try await store.user(email: wanted.email), "\(wanted.email)")
            #expect(PasswordSchemes.name(of: user.passwordHash) == wanted.scheme, "\(user.email)")
            #expect(hasher.verify(typed: wanted.password, against: user.passwordHash), "\(user.email) signs in")
            #expect(!hasher.verify(typed: wanted.password + "x", against: user.passwordHash), "\(user.email)")
            #expect(user.mustChangePassword == expected.temporary.contains(user.email), "\(user.email)")
            #expect((user.emailVerifiedAt != nil) == expected.verified.contains(user.email), "\(user.email)")
            #expect(!user.isBlocked, "\(user.email)")
        }
        // Kept, they come in blocked, their passwords theirs all the same.
        let keeping = try await Self.imported(
            source, Self.folder + "/" + file, options: ForeignImportOptions(keepBlocked: true, now: Self.now))
        #expect(Set(keeping.check.refused.map(\.source)) == Set(expected.refused))
        for blocked in expected.blocked {
            let user = try #require(try await keeping.store.user(email: blocked.email), "\(blocked.email)")
            #expect(user.isBlocked)
            #expect(hasher.verify(typed: blocked.password, against: user.passwordHash), "\(blocked.email)")
        }
    }

    @Test("Strapi's and Django's integer ids become the users' numbers where the store never gave them")
    func sourceIDsBecomeNumbers() async throws {
        let scratch = try ScratchFolder("import-numbers")
        let csv = try Self.file(
            scratch, "up_users.csv",
            """
            id,email,username,password,created_at
            17,first@example.com,first,\(Self.hash),2024-05-29T16:26:40.123Z
            42,second@example.com,second,\(Self.hash),2024-05-29T16:26:41.000Z
            3,third@example.com,third,\(Self.hash),2024-05-29T16:26:42.000Z

            """)
        #expect(try StrapiSource().accounts(in: csv).map(\.number) == [17, 42, 3])
        // A store that gave numbers 1 … 3 before (user 3 withdrew): 17 and 42 are kept, 3 is not.
        let store = MemoryUserRepository()
        for n in 1...3 {
            try await store.createUser(
                UserRecord(
                    id: UserID(rawValue: String(repeating: "0", count: 31) + String(n)),
                    email: "resident\(n)@example.com", nickname: "r", passwordHash: Self.hash,
                    createdAt: Timestamp(millisecondsSince1970: 0)),
                initialSession: nil)
        }
        #expect(try await store.deleteUser(id: UserID(rawValue: String(repeating: "0", count: 31) + "3")))
        let options = ForeignImportOptions(now: Self.now)
        let check = try ForeignImporter.check(StrapiSource(), path: csv, options: options)
        let report = try await ForeignImporter.store(
            check, from: StrapiSource(), path: csv, options: options, into: store, merge: true)
        #expect(report.imported == 3 && report.renumbered == 1)
        let numbers = try await ["first", "second", "third"].asyncNumbers(in: store)
        #expect(numbers == [17, 42, 43], "the taken 3 got the next number after the kept 42")
    }

    @Test("a hash that would cost too much to check is refused at import, naming its cost; a raised limit admits it")
    func costlyHashesAreRefused() throws {
        let scratch = try ScratchFolder("import-costly")
        let costly = "$2a$31$xmNttMt.4aKSRCj8oQ9dz.5v6u5y183W7tQG/HBAne4BPdOzBCwU6"
        let csv = try Self.file(
            scratch, "up_users.csv",
            """
            id,email,username,password,created_at
            1,cheap@example.com,cheap,\(Self.hash),2024-05-29T16:26:40.123Z
            2,costly@example.com,costly,\(costly),2024-05-29T16:26:41.000Z

            """)
        let check = try ForeignImporter.check(StrapiSource(), path: csv, options: ForeignImportOptions(now: Self.now))
        #expect(check.wouldImport == 1)
        let refusal = try #require(check.refused.first)
        #expect(refusal.user.email == "costly@example.com" && !refusal.mendableInFile)
        #expect(refusal.problem(.english).contains("bcrypt cost 31 is over the limit of 16"))
        #expect(!refusal.problem(.english).contains(costly), "the hash stays out of the message")
        let admitting = try ForeignImporter.check(
            StrapiSource(), path: csv,
            options: ForeignImportOptions(limits: LegacyCostLimits(bcryptCost: 31), now: Self.now))
        #expect(admitting.wouldImport == 2 && admitting.refused.isEmpty)
    }

    @Test(
        "a refused record leaves its email to the next record; an empty password is named; a Unicode domain is stored in ASCII"
    )
    func recordByRecord() async throws {
        let scratch = try ScratchFolder("import-records")
        let csv = try Self.file(
            scratch, "up_users.csv",
            """
            id,email,username,password,created_at
            1,twice@example.com,first,\(Self.hash.prefix(50)),2024-05-29T16:26:40.123Z
            2,Twice@Example.com,second,\(Self.hash),2024-05-29T16:26:41.000Z
            3,empty@example.com,third,,2024-05-29T16:26:42.000Z
            4,user@실례.한국,fourth,\(Self.hash),2024-05-29T16:26:43.000Z
            5,puny@xn--9n2bp8q.xn--3e0b707e,fifth,\(Self.hash),2024-05-29T16:26:44.000Z

            """)
        let (check, store, _) = try await Self.imported(StrapiSource(), csv)
        let stored = try await store.users(after: nil, limit: 10)
        #expect(
            Set(stored.map(\.email)) == [
                "twice@example.com", "user@xn--9n2bp8q.xn--3e0b707e", "puny@xn--9n2bp8q.xn--3e0b707e",
            ])
        #expect(try await store.user(email: "twice@example.com")?.number == 2, "the second record, with its own id")
        #expect(check.refused.map(\.source) == ["user 1", "user 3"])
        #expect(check.refused.map(\.sourceID) == ["1", "3"])
        #expect(check.refused[0].problem(.english).contains("60 characters long; this one is 50"))
        #expect(check.refused[1].problem(.english).contains("its password is empty"))
        #expect(!check.refused[1].problem(.english).contains("no scheme"))
    }

    /// What `body` throws, as an `AccountError`'s English message (nil when nothing is thrown).
    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as AccountError {
            return error.message(.english)
        } catch {
            return "\(error)"
        }
    }

    @Test("a file that is not what --from says, or holds no users, is refused whole, naming what was expected")
    func wholeFileMistakes() throws {
        let scratch = try ScratchFolder("import-whole-file")
        let options = ForeignImportOptions(now: Self.now)
        let supabase = Self.folder + "/supabase.csv"
        let asStrapi = Self.refusal { _ = try ForeignImporter.check(StrapiSource(), path: supabase, options: options) }
        #expect(asStrapi?.contains("has no column password, username") == true, "\(asStrapi ?? "")")
        #expect(asStrapi?.contains("encrypted_password") == true && asStrapi?.contains("nothing was written") == true)
        let empty = try Self.file(scratch, "empty.json", "[]")
        let kratos = Self.refusal { _ = try ForeignImporter.check(KratosSource(), path: empty, options: options) }
        #expect(kratos?.contains("it holds no users") == true, "\(kratos ?? "")")
        let headerOnly = try Self.file(scratch, "header.csv", "id,email,username,password\n")
        #expect(
            Self.refusal { _ = try ForeignImporter.check(StrapiSource(), path: headerOnly, options: options) }?
                .contains("it holds no users") == true)
        let groups = try Self.file(
            scratch, "auth.json",
            #"[{"model":"auth.group","pk":1,"fields":{"name":"editors","permissions":[]}},"#
                + #"{"model":"auth.user","pk":1,"fields":{"username":"a","email":"a@example.com","password":"x"}}]"#)
        let django = Self.refusal { _ = try ForeignImporter.check(DjangoSource(), path: groups, options: options) }
        #expect(django?.contains("is a auth.group, not a auth.user") == true, "\(django ?? "")")
        let trailing = try Self.file(
            scratch, "trailing.json",
            #"[{"traits":{"email":"a@example.com"}}] {"traits":{"email":"b@example.com"}}"#)
        let garbage = Self.refusal { _ = try ForeignImporter.check(KratosSource(), path: trailing, options: options) }
        #expect(garbage?.contains("the end of the file after the records") == true, "\(garbage ?? "")")
    }

    @Test(
        "one table in every form gives the same users: CSV by commas or semicolons, with a BOM and CRLF, JSON, JSON Lines"
    )
    func everyFormOfOneTable() async throws {
        let scratch = try ScratchFolder("import-forms")
        let rows = [("7", "seven@example.com", "seven"), ("9", "nine@example.com", "nine")]
        let comma = "id,email,username,password\n" + rows.map { "\($0.0),\($0.1),\($0.2),\(Self.hash)\n" }.joined()
        let forms = [
            ("comma.csv", comma), ("semicolon.csv", comma.replacingOccurrences(of: ",", with: ";")),
            ("tab.csv", comma.replacingOccurrences(of: ",", with: "\t")),
            ("bom.csv", "\u{FEFF}" + comma.replacingOccurrences(of: "\n", with: "\r\n")),
            (
                "rows.json",
                "["
                    + rows.map {
                        #"{"id":\#($0.0),"email":"\#($0.1)","username":"\#($0.2)","password":"\#(Self.hash)"}"#
                    }
                    .joined(separator: ",\n") + "]"
            ),
            (
                "rows.jsonl",
                rows.map { #"{"id":\#($0.0),"email":"\#($0.1)","username":"\#($0.2)","password":"\#(Self.hash)"}"# }
                    .joined(separator: "\n") + "\n"
            ),
        ]
        for (name, text) in forms {
            let path = try Self.file(scratch, name, text)
            let (check, store, _) = try await Self.imported(StrapiSource(), path)
            #expect(check.refused.isEmpty, "\(name): \(check.refused.map { $0.problem(.english) })")
            for (id, email, _) in rows {
                #expect(try await store.user(email: email)?.number == Int(id), "\(name): \(email) keeps its id")
            }
        }
    }

    @Test("an import cut short and run again goes on: nobody renumbered, nothing reported twice, the checkpoint gone")
    func interruptedImportResumes() async throws {
        let scratch = try ScratchFolder("import-resume")
        let count = 2_500
        var csv = "id,email,username,password\n"
        for n in 1...count { csv += "\(150_000 + n),user\(n)@example.com,user\(n),\(Self.hash)\n" }
        let path = try Self.file(scratch, "up_users.csv", csv)
        let options = ForeignImportOptions(now: Self.now)
        let check = try ForeignImporter.check(StrapiSource(), path: path, options: options)
        let store = MemoryUserRepository()
        let batches = Mutex(0)
        let failing = ObservedRepository(store) { call in
            guard call == "createUsers" else { return }
            let made = batches.withLock { count in
                count += 1
                return count
            }
            if made == 2 { throw AccountError.storeIO(detail: "the disk is full") }
        }
        var failure: AccountError?
        do {
            _ = try await ForeignImporter.store(
                check, from: StrapiSource(), path: path, options: options, into: failing, merge: false)
        } catch let error as AccountError {
            failure = error
        }
        #expect(failure?.message(.english).contains("1000 users and 0 sessions had been imported") == true)
        #expect(failure?.message(.english).contains("run the same import again") == true)
        // Meanwhile someone signs up: the store's next number is past every number of the file.
        let walkIn = try await store.createUser(
            UserRecord(
                id: UserID(rawValue: String(repeating: "f", count: 32)), email: "walk.in@example.com", nickname: "walk",
                passwordHash: Self.hash, createdAt: Self.now),
            initialSession: nil)
        #expect(walkIn == 150_000 + count + 1)
        var mapped: [IDMapEntry] = []
        let report = try await ForeignImporter.store(
            check, from: StrapiSource(), path: path, options: options, into: store, merge: false,
            idMap: { mapped.append($0) })
        #expect(report.resumed && report.alreadyImported == 1_000 && report.imported == 1_500)
        #expect(report.conflicts.isEmpty && report.renumbered == 0)
        for n in [1, 1_000, 1_001, count] {
            #expect(try await store.user(email: "user\(n)@example.com")?.number == 150_000 + n, "user \(n)")
        }
        #expect(mapped.count == count && Set(mapped.map(\.number)) == Set((1...count).map { 150_000 + $0 }))
        #expect(mapped.allSatisfy { $0.sourceID == String($0.number) })
        #expect(try await store.storeValue(forKey: "import:" + check.fingerprint.prefix(32)) == nil)
    }

    @Test("this store's own export, its import cut short, goes on when run again: ids, numbers and sessions kept")
    func ownExportResumes() async throws {
        let scratch = try ScratchFolder("import-own-resume")
        let source = MemoryUserRepository()
        let users = (1...1_500).map { n in
            UserRecord(
                id: UserID(rawValue: String(format: "%032x", n)), email: "user\(n)@example.com", nickname: "user\(n)",
                passwordHash: Self.hash, createdAt: Timestamp(millisecondsSince1970: Int64(n)))
        }
        _ = try await source.createUsers(users)
        var lines: [String] = []
        _ = try await StoreExporter.export(source, sourceBackend: "memory", withSessions: true, now: Self.now) {
            lines.append($0)
        }
        let path = try Self.file(scratch, "all.jsonl", lines.joined(separator: "\n") + "\n")
        let file = try StoreImporter.validate(path)
        let store = MemoryUserRepository()
        let batches = Mutex(0)
        let failing = ObservedRepository(store) { call in
            guard call == "createUsers" else { return }
            if batches.withLock({
                $0 += 1
                return $0
            }) == 2 {
                throw AccountError.storeIO(detail: "the disk is full")
            }
        }
        await #expect(throws: AccountError.self) {
            _ = try await StoreImporter.importFile(file, into: failing, merge: false)
        }
        #expect(try await store.userCount() == 1_000)
        let report = try await StoreImporter.importFile(file, into: store, merge: false)
        #expect(report.resumed && report.alreadyImported == 1_000 && report.imported == 500 && report.conflicts.isEmpty)
        for user in [users[0], users[999], users[1_000], users[1_499]] {
            let stored = try #require(try await store.user(id: user.id))
            #expect(stored.number == Int(user.id.rawValue, radix: 16), "\(user.email)")
        }
    }

    @Test("a refused record keeps its source id and number in the refused file, and comes back with that number")
    func refusedRecordKeepsItsNumber() async throws {
        let scratch = try ScratchFolder("import-refused-number")
        let path = try Self.file(
            scratch, "up_users.csv",
            "id,email,username,password\n7,seven@example.com,\"bad\u{1B}name\",\(Self.hash)\n8,eight@example.com,eight,\(Self.hash)\n"
        )
        let options = ForeignImportOptions(now: Self.now)
        let check = try ForeignImporter.check(StrapiSource(), path: path, options: options)
        let store = MemoryUserRepository()
        _ = try await ForeignImporter.store(
            check, from: StrapiSource(), path: path, options: options, into: store, merge: false)
        let lines = RefusedRecordsFile.lines(check.refused)
        #expect(lines.count == 1 && lines[0].contains(#""source_id":"7""#) && lines[0].contains(#""number":7"#))
        let fixed = try Self.file(scratch, "fixed.jsonl", lines[0].replacingOccurrences(of: "\\u001b", with: "") + "\n")
        let again = try ForeignImporter.check(RefusedRecordsSource(), path: fixed, options: options)
        #expect(again.refused.isEmpty, "\(again.refused.map { $0.problem(.english) })")
        _ = try await ForeignImporter.store(
            again, from: RefusedRecordsSource(), path: fixed, options: options, into: store, merge: true)
        #expect(try await store.user(email: "seven@example.com")?.number == 7, "its own number, not the next one")
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
